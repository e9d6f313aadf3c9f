#!/bin/sh
# Palisade routes, rendered by @palisade/firewall. No route is managed any more: the
# routes an earlier run added (proto 250) are deleted, and no other route.
set -e
keep='  '
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
keep='  '
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
