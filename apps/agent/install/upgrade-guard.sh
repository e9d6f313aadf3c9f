#!/bin/sh
# upgrade-guard: runs before every start of palisade-agent (the unit's ExecStartPre).
#
# After an upgrade the agent leaves <state-dir>/upgrade.json, one line:
#   {"id":N,"from":"0.2.0","to":"0.2.1","deadline":UNIX-SECONDS}
# and points <install-dir>/current at versions/<to>. The new version removes the file once it
# has reported in to the server. If the file is still there after its deadline, the new version
# never made it: this script points `current` back at versions/<from> and moves the file to
# upgrade-failed.json with the reason, which the restored agent reports to the server.
# Before the deadline it does nothing (the new version is being restarted and may yet report in).
# It never stops the agent from starting: a problem is written to stderr and it exits 0.
set -eu

usage() {
  echo 'usage: upgrade-guard --install-dir DIR --state-dir DIR' >&2
  exit 2
}

install_dir=
state_dir=
while [ $# -gt 0 ]; do
  case $1 in
    --install-dir)
      [ $# -ge 2 ] || usage
      install_dir=$2
      shift 2
      ;;
    --install-dir=*)
      install_dir=${1#*=}
      shift
      ;;
    --state-dir)
      [ $# -ge 2 ] || usage
      state_dir=$2
      shift 2
      ;;
    --state-dir=*)
      state_dir=${1#*=}
      shift
      ;;
    *) usage ;;
  esac
done
if [ -z "$install_dir" ] || [ -z "$state_dir" ]; then
  usage
fi

pending=$state_dir/upgrade.json
failed=$state_dir/upgrade-failed.json
[ -f "$pending" ] || exit 0

record=$(cat "$pending")
# A field of the one-line record: a number, or a string without quotes, commas or braces.
field() {
  printf '%s\n' "$record" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}
id=$(field id)
from=$(field from)
to=$(field to)
deadline=$(field deadline)

say() {
  echo "upgrade-guard: $*" >&2
}
is_number() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
}
is_version() {
  case $1 in '' | .* | *[!0-9A-Za-z.+-]*) return 1 ;; esac
}
if ! is_number "$id" || ! is_number "$deadline" || ! is_version "$from" || ! is_version "$to"; then
  say "$pending is not an upgrade record; left for the agent to discard"
  exit 0
fi

now=$(date +%s)
if [ "$now" -le "$deadline" ]; then
  exit 0
fi
if [ ! -d "$install_dir/versions/$from" ]; then
  say "version $to missed its deadline, but $install_dir/versions/$from is gone: nothing to restore"
  exit 0
fi

# A new link renamed over the old one: `current` always names a whole version. mv -T (GNU,
# BusyBox) renames onto the link itself; without it, ln -sfn replaces it in two steps.
link=$install_dir/.current.guard.$$
rm -f "$link"
ln -s "versions/$from" "$link"
if ! mv -T -f "$link" "$install_dir/current" 2>/dev/null; then
  rm -f "$link"
  ln -sfn "versions/$from" "$install_dir/current"
fi

reason="version $to did not report in to the server before its deadline; $from restored"
printf '{"id":%s,"from":"%s","to":"%s","reason":"%s"}\n' "$id" "$from" "$to" "$reason" \
  >"$failed.tmp"
mv -f "$failed.tmp" "$failed"
rm -f "$pending"
say "$reason"
