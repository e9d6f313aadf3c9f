#!/usr/bin/env bash
# Installs the system programs the test suite and benchmarks drive for real:
# Debian's Chromium (end-to-end tests), nftables and iproute2 (firewall checks and network
# namespaces), suricata-update (the reference rule parser the benchmarks compare with) and
# shellcheck and busybox (the agent's install script is checked with them), and curl (the
# browser test runs the console's install one-liner), and acl (setfacl/getfacl: the install
# script grants the agent's user access to Suricata's eve.json and command socket).
# Idempotent; needs root or passwordless sudo the first time.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v nft >/dev/null 2>&1 || need+=(nftables)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v suricata-update >/dev/null 2>&1 || need+=(suricata-update)
command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
command -v busybox >/dev/null 2>&1 || need+=(busybox)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v setfacl >/dev/null 2>&1 || need+=(acl)
[ ${#need[@]} -eq 0 ] && exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "Please install: ${need[*]} (needs root)" >&2; exit 1; }
  sudo_cmd=(sudo -n)
fi
echo "Installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
