#!/bin/sh
# Palisade routes, rendered by @palisade/firewall. Idempotent: `ip route replace`, then the
# routes an earlier run added (proto 250) and no longer configured are deleted.
set -e
ip -4 route replace 10.20.0.0/16 via 10.10.1.254 metric 100 proto 250
ip -4 route replace default via 198.51.100.1 dev wan proto 250
ip -6 route replace 2001:db8:20::/48 via 2001:db8:10::1 metric 1024 proto 250
ip -4 route replace 10.30.0.0/16 dev lan metric 5 proto 250
keep=' 10.20.0.0/16@100 default@0 10.30.0.0/16@5 '
ip -4 route show proto 250 | while read -r dst rest; do
  if [ "$dst" = nexthop ]; then continue; fi
  metric=0
  set -- $rest
  while [ $# -gt 1 ]; do
    if [ "$1" = metric ]; then metric=$2; fi
    shift
  done
  case "$keep" in
    *" $dst@$metric "*) ;;
    *) ip -4 route del "$dst" proto 250 metric "$metric" ;;
  esac
done
keep=' 2001:db8:20::/48@1024 '
ip -6 route show proto 250 | while read -r dst rest; do
  if [ "$dst" = nexthop ]; then continue; fi
  metric=1024
  set -- $rest
  while [ $# -gt 1 ]; do
    if [ "$1" = metric ]; then metric=$2; fi
    shift
  done
  case "$keep" in
    *" $dst@$metric "*) ;;
    *) ip -6 route del "$dst" proto 250 metric "$metric" ;;
  esac
done
