#!/bin/sh
# Palisade routes, rendered by @palisade/firewall: idempotent (ip route replace).
set -e
ip -4 route replace 10.20.0.0/16 via 10.10.1.254 metric 100
ip -4 route replace default via 198.51.100.1 dev wan
ip -6 route replace 2001:db8:20::/48 via 2001:db8:10::1 metric 1024
ip -4 route replace 10.30.0.0/16 dev lan metric 5
