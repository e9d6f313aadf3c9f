#!/bin/sh
# Palisade agent installer. The console shows it as a one-liner:
#   curl -fsSL https://console.example/api/v1/agent/install.sh | sudo sh -s -- \
#     --server https://console.example --token pse_…
# It downloads the agent from that server, checks every file against the server's SHA-256,
# exchanges the single-use token for the device's credentials, writes the configuration and a
# hardened systemd unit, and starts it. Running it again changes nothing; --uninstall removes
# everything it created. POSIX sh: runs under dash and busybox sh.
set -eu

AGENT_USER=${PALISADE_AGENT_USER:-palisade-agent}
UNIT=palisade-agent.service
MARK='# palisade-agent'

usage() {
  cat <<'EOF'
Usage: install.sh --server URL --token TOKEN [options]
       install.sh --uninstall [--root DIR]

Installs the Palisade sensor agent as the systemd service palisade-agent.

  --server URL          the Palisade console, e.g. https://palisade.example.org
  --token TOKEN         single-use enrolment token from the console (or PALISADE_ENROL_TOKEN);
                        not needed when this host is already enrolled
  --flavor KIND         executable (default on Linux x86_64; needs no Node.js) or node-module
                        (bundled .mjs, needs Node.js >= 20.19)
  --eve FILE            Suricata's eve.json to ship alerts from
                        (default /var/log/suricata/eve.json when /var/log/suricata exists)
  --output-dir DIR      where the agent writes rules and variables (/etc/suricata/palisade)
  --reload-cmd CMD      run in the output folder after each new bundle; repeatable (default:
                        suricatasc -c reload-rules, nft -f nftables.nft and sh routes.sh, each
                        when that program is installed)
  --configure-suricata  add the include lines to /etc/suricata/suricata.yaml (a backup is kept)
                        and check the result with suricata -T
  --reenrol             exchange a new token even though this host is enrolled
  --no-start            install but do not enable or start the service
  --uninstall           stop the service and remove everything this script created
  --root DIR            install under DIR instead of / (tests; needs no root; no user is
                        created and systemctl is only run when SYSTEMCTL is set)
  -h, --help            this help

Environment: PALISADE_ENROL_TOKEN, SYSTEMCTL (default systemctl), USERADD / USERDEL (replace
useradd / userdel), PALISADE_AGENT_USER (the service's user, default palisade-agent; tests),
TMPDIR (where downloads are checked before they are installed).
EOF
}

say() { printf 'palisade-agent install: %s\n' "$*"; }
die() {
  printf 'palisade-agent install: error: %s\n' "$*" >&2
  exit 1
}

# ---------------------------------------------------------------------------------------------
# Options

parse_options() {
  server='' token=${PALISADE_ENROL_TOKEN:-} root='' flavor='' eve='' eve_given=no
  output_dir=/etc/suricata/palisade reload_cmds='' configure_suricata=no reenrol=no
  uninstall=no start=yes
  while [ $# -gt 0 ]; do
    case $1 in
      --*=*)
        _name=${1%%=*}
        _value=${1#*=}
        shift
        set -- "$_name" "$_value" "$@"
        continue
        ;;
    esac
    case $1 in
      --server | --token | --root | --flavor | --eve | --output-dir | --reload-cmd)
        [ $# -ge 2 ] || die "$1 needs a value"
        case $1 in
          --server) server=$2 ;;
          --token) token=$2 ;;
          --root) root=$2 ;;
          --flavor) flavor=$2 ;;
          --eve) eve=$2 eve_given=yes ;;
          --output-dir) output_dir=$2 ;;
          --reload-cmd) reload_cmds="$reload_cmds$2
" ;;
        esac
        shift 2
        ;;
      --configure-suricata) configure_suricata=yes && shift ;;
      --reenrol) reenrol=yes && shift ;;
      --uninstall) uninstall=yes && shift ;;
      --no-start) start=no && shift ;;
      -h | --help) usage && exit 0 ;;
      *) die "unknown option $1 (see --help)" ;;
    esac
  done

  if [ -n "$root" ]; then
    case $root in /*) ;; *) root=$(pwd)/$root ;; esac
    root=${root%/}
    [ -d "$root" ] || die "--root $root is not a folder"
  elif [ "$(id -u)" != 0 ]; then
    die "run as root (curl … | sudo sh -s -- …), or give --root DIR to install under a folder"
  fi
  check_path --root "$root"
  check_path --output-dir "$output_dir"
  check_path --eve "$eve"
  case $AGENT_USER in
    '' | [!a-z_]* | *[!a-z0-9_-]*) die "PALISADE_AGENT_USER must be a plain user name: $AGENT_USER" ;;
  esac
  case $flavor in '' | executable | node-module) ;; *)
    die "--flavor is executable or node-module, not $flavor"
    ;;
  esac
  [ $uninstall = yes ] && return 0

  server=${server%/}
  case $server in
    http://?* | https://?*) ;;
    '') die "--server is required: the console's address, e.g. https://palisade.example.org" ;;
    *) die "--server must be an http:// or https:// URL, not $server" ;;
  esac
  case $server in *[!A-Za-z0-9._~:/@+=-]*)
    die "--server may hold only letters, digits and . _ ~ : / @ + = -: $server"
    ;;
  esac
}

# Paths end up in the unit file, the launcher and the config: keep them to plain characters.
check_path() {
  case $2 in
    *[!A-Za-z0-9._/+@-]*) die "$1 may hold only letters, digits and . _ / + @ -: $2" ;;
    '' | /*) ;;
    *) [ "$1" = --root ] || die "$1 must be an absolute path: $2" ;;
  esac
}

set_paths() {
  INSTALL_DIR=$root/opt/palisade-agent
  ETC_DIR=$root/etc/palisade
  CONFIG=$ETC_DIR/agent.json
  SECRET=$ETC_DIR/agent.secret
  RECORD=$ETC_DIR/installed
  STATE_DIR=$root/var/lib/palisade-agent
  OUTPUT_DIR=$root$output_dir
  UNIT_FILE=$root/etc/systemd/system/$UNIT
  BIN_LINK=$root/usr/local/bin/palisade-agent
  SURICATA_YAML=$root/etc/suricata/suricata.yaml
  SURICATA_RUN_DIR=$root/var/run/suricata
  SURICATA_SOCKET=$SURICATA_RUN_DIR/suricata-command.socket
  SURICATA_DROPIN=$root/etc/systemd/system/suricata.service.d/palisade-agent.conf
}

# ---------------------------------------------------------------------------------------------
# Files: every write goes to a temporary name beside its target and is renamed over it, and only
# when its content differs, so a second run changes no byte. What did not exist before is noted
# in $RECORD, which --uninstall works through.

remember() {
  [ -f "$RECORD" ] && grep -qxF "$1 $2" "$RECORD" && return 0
  printf '%s %s\n' "$1" "$2" >>"$RECORD"
}

# make_dir DIR MODE OWNER [tree]: creates DIR and its missing parents. "tree" marks a folder
# that is wholly ours (removed with its content); parents are only removed when left empty.
make_dir() {
  _missing=''
  _dir=$1
  while [ ! -d "$_dir" ]; do
    _missing="$_dir $_missing"
    _dir=$(dirname "$_dir")
  done
  for _dir in $_missing; do
    mkdir "$_dir"
    chmod 755 "$_dir"
  done
  # Noted once all exist: the first folder made is the one that holds $RECORD.
  for _dir in $_missing; do
    if [ "$_dir" = "$1" ] && [ "${4:-}" = tree ]; then remember tree "$_dir"; else remember dir "$_dir"; fi
  done
  set_attrs "$1" "$2" "$3"
}

# Touched only when they differ: even an idle chmod changes a file's ctime.
set_attrs() {
  [ "$(stat -c %a "$1")" = "$2" ] || chmod "$2" "$1"
  [ -n "$root" ] && return 0 # a scratch root has no palisade-agent user
  [ "$(stat -c %U:%G "$1")" = "$3" ] || chown "$3" "$1"
}

# install_file SOURCE TARGET MODE OWNER
install_file() {
  if [ -f "$2" ] && [ ! -L "$2" ] && cmp -s "$1" "$2"; then
    set_attrs "$2" "$3" "$4"
    return 0
  fi
  [ -e "$2" ] || [ -L "$2" ] || remember file "$2"
  rm -f "$2.palisade-new"
  cp "$1" "$2.palisade-new"
  set_attrs "$2.palisade-new" "$3" "$4"
  mv -f "$2.palisade-new" "$2"
  changed=yes
}

# write_file TARGET MODE OWNER < content
write_file() {
  cat >"$stage/write"
  install_file "$stage/write" "$@"
}

# install_link TARGET LINK
install_link() {
  [ -L "$2" ] && [ "$(readlink "$2")" = "$1" ] && return 0
  [ -e "$2" ] || [ -L "$2" ] || remember link "$2"
  rm -f "$2.palisade-new"
  ln -s "$1" "$2.palisade-new"
  mv -fT "$2.palisade-new" "$2" 2>/dev/null || { rm -f "$2" && mv -f "$2.palisade-new" "$2"; }
  changed=yes
}

json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g')"
}

# ---------------------------------------------------------------------------------------------
# Downloads

fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || die "cannot download $1 (is --server right and reachable?)"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "cannot download $1 (is --server right and reachable?)"
  else
    die "neither curl nor wget is installed: install one of them"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "sha256sum is not installed (coreutils or busybox has it)"
  fi
}

# download_verified NAME: the release file NAME into $stage, checked against NAME.sha256 and the
# manifest, which must agree.
download_verified() {
  fetch "$server/api/v1/agent/download/$1.sha256" "$stage/$1.sha256"
  fetch "$server/api/v1/agent/download/$1" "$stage/$1"
  _expected=$(cut -d ' ' -f 1 <"$stage/$1.sha256")
  _actual=$(sha256_of "$stage/$1")
  case $_expected in *[!0-9a-f]* | '') die "$1.sha256 from the server is not a SHA-256" ;; esac
  [ ${#_expected} -eq 64 ] || die "$1.sha256 from the server is not a SHA-256"
  grep -q "\"$_expected\"" "$stage/manifest.json" ||
    die "$1.sha256 does not match the server's manifest: nothing was installed"
  [ "$_actual" = "$_expected" ] ||
    die "$1 is corrupt: its SHA-256 is $_actual, the server's manifest says $_expected; nothing was installed"
}

download_release() {
  fetch "$server/api/v1/agent/download/" "$stage/manifest.json"
  version=$(tr ',{}' '\n' <"$stage/manifest.json" |
    sed -n 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"\([^"]*\)"[[:space:]]*$/\1/p' |
    head -n 1)
  case $version in '' | *[!0-9A-Za-z.+-]*)
    die "the server's agent manifest names no usable version: is $server a Palisade console?"
    ;;
  esac
  case $flavor in
    executable) agent_file=palisade-agent-linux-x64 agent_name=palisade-agent ;;
    node-module) agent_file=palisade-agent.mjs agent_name=palisade-agent.mjs ;;
  esac
  download_verified "$agent_file"
  download_verified upgrade-guard.sh
  chmod 755 "$stage/$agent_file"
}

choose_flavor() {
  node=$(command -v node 2>/dev/null || true)
  if [ -z "$flavor" ]; then
    if [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ]; then
      flavor=executable
    elif node_is_recent; then
      flavor='node-module'
    else
      die "no agent executable for $(uname -s) $(uname -m): install Node.js 20.19 or later and run again"
    fi
  fi
  if [ "$flavor" = node-module ] && ! node_is_recent; then
    die "--flavor node-module needs Node.js 20.19 or later on the PATH"
  fi
}

node_is_recent() {
  [ -n "$node" ] || return 1
  _v=$("$node" -p 'process.versions.node' 2>/dev/null) || return 1
  _major=${_v%%.*}
  _minor=${_v#*.}
  _minor=${_minor%%.*}
  [ "$_major" -gt 20 ] || { [ "$_major" -eq 20 ] && [ "$_minor" -ge 19 ]; }
}

# ---------------------------------------------------------------------------------------------
# Enrolment

enrolled_device_id() {
  [ -f "$CONFIG" ] && [ -s "$SECRET" ] || return 0
  sed -n 's/.*"device-id"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$CONFIG" | head -n 1
}

check_token() {
  [ -n "$token" ] ||
    die "--token is required: issue an enrolment token in the console (Devices → Enrol)"
  printf '%s\n' "$token" | grep -Eq '^pse_[0-9]+_[A-Za-z0-9_-]{43}$' ||
    die "the enrolment token is malformed (tokens look like pse_12_…, 48 characters or more): copy the whole command from the console again"
}

# The agent staged in $stage exchanges the token: the token goes by environment, not argv, so it
# never shows in ps.
enrol() {
  printf '{\n  "server": %s\n}\n' "$(json_string "$server")" >"$stage/agent.json"
  if [ "$flavor" = executable ]; then
    set -- "$stage/$agent_file"
  else
    set -- "$node" "$stage/$agent_file"
  fi
  (
    PALISADE_ENROL_TOKEN=$token
    export PALISADE_ENROL_TOKEN
    exec "$@" enrol --server "$server" --config "$stage/agent.json" \
      --password-file "$stage/agent.secret" </dev/null
  ) || die "enrolment failed (the agent said why above); nothing was installed"
  device_id=$(sed -n 's/.*"device-id"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' \
    "$stage/agent.json" | head -n 1)
  if [ -z "$device_id" ] || [ ! -s "$stage/agent.secret" ]; then
    die "the agent enrolled but wrote no device id or password; nothing was installed"
  fi
}

# ---------------------------------------------------------------------------------------------
# What gets written

default_reload_cmds() {
  command -v suricatasc >/dev/null 2>&1 && printf '%s\n' 'suricatasc -c reload-rules'
  command -v nft >/dev/null 2>&1 && printf '%s\n' 'test ! -e nftables.nft || nft -f nftables.nft'
  command -v ip >/dev/null 2>&1 && printf '%s\n' 'test ! -e routes.sh || sh routes.sh'
  return 0
}

write_config() {
  {
    printf '{\n'
    printf '  "server": %s,\n' "$(json_string "$server")"
    printf '  "device-id": %s,\n' "$device_id"
    printf '  "output-dir": %s,\n' "$(json_string "$OUTPUT_DIR")"
    printf '  "state-dir": %s,\n' "$(json_string "$STATE_DIR")"
    [ -z "$eve" ] || printf '  "eve": %s,\n' "$(json_string "$root$eve")"
    printf '  "reload-cmd": ['
    _sep=''
    printf '%s\n' "$reload_cmds" | {
      while IFS= read -r _cmd; do
        [ -n "$_cmd" ] || continue
        printf '%s\n    %s' "$_sep" "$(json_string "$_cmd")"
        _sep=,
      done
      [ -z "$_sep" ] || printf '\n  '
    }
    printf '],\n'
    printf '  "install-dir": %s\n' "$(json_string "$INSTALL_DIR")"
    printf '}\n'
  } | write_file "$CONFIG" 644 root:root
}

write_launcher() {
  {
    printf '#!/bin/sh\n'
    printf '# Written by the Palisade install script: runs the agent version current/ points at.\n'
    if [ "$flavor" = executable ]; then
      printf "exec '%s/current/palisade-agent' \"\$@\"\n" "$INSTALL_DIR"
    else
      printf "exec '%s' '%s/current/palisade-agent.mjs' \"\$@\"\n" "$node" "$INSTALL_DIR"
    fi
  } | write_file "$INSTALL_DIR/bin/palisade-agent" 755 root:root
}

# Least privilege: the agent writes only its output, state and install folders (upgrades swap
# versions there) and holds only CAP_NET_ADMIN, which nft and ip route need. The password is
# handed over by systemd (LoadCredential), so the secret file stays root-only.
write_unit() {
  write_file "$UNIT_FILE" 644 root:root <<EOF
[Unit]
Description=Palisade sensor agent
After=network-online.target
Wants=network-online.target
StartLimitIntervalSec=0

[Service]
Type=simple
User=$AGENT_USER
Group=$AGENT_USER
LoadCredential=password:$SECRET
ExecStartPre=$INSTALL_DIR/bin/upgrade-guard --install-dir $INSTALL_DIR --state-dir $STATE_DIR
ExecStart=$INSTALL_DIR/bin/palisade-agent run --config $CONFIG --password-file \${CREDENTIALS_DIRECTORY}/password
Restart=always
RestartSec=5
StateDirectory=palisade-agent
StateDirectoryMode=0750
UMask=0022
AmbientCapabilities=CAP_NET_ADMIN
CapabilityBoundingSet=CAP_NET_ADMIN
NoNewPrivileges=yes
ProtectSystem=strict
ReadWritePaths=$OUTPUT_DIR $INSTALL_DIR
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native

[Install]
WantedBy=multi-user.target
EOF
}

ensure_user() {
  if [ -f "$RECORD" ] && grep -qxF "user $AGENT_USER" "$RECORD"; then return 0; fi
  if [ -z "$root" ] && id "$AGENT_USER" >/dev/null 2>&1; then return 0; fi
  if [ -n "$root" ] && [ -z "${USERADD:-}" ]; then
    say "(--root) would create the system user $AGENT_USER"
    return 0
  fi
  _nologin=$(command -v nologin 2>/dev/null || echo /bin/false)
  if [ -n "${USERADD:-}" ] || command -v useradd >/dev/null 2>&1; then
    "${USERADD:-useradd}" --system --user-group --no-create-home --home-dir /var/lib/palisade-agent \
      --shell "$_nologin" --comment 'Palisade sensor agent' "$AGENT_USER" </dev/null ||
      die "could not create the system user $AGENT_USER"
  elif command -v adduser >/dev/null 2>&1; then
    { addgroup -S "$AGENT_USER" && adduser -S -D -H -h /var/lib/palisade-agent \
      -s "$_nologin" -G "$AGENT_USER" "$AGENT_USER"; } </dev/null ||
      die "could not create the system user $AGENT_USER"
  else
    die "neither useradd nor adduser is installed: cannot create the user $AGENT_USER"
  fi
  remember user "$AGENT_USER"
  say "created the system user $AGENT_USER"
}

# ---------------------------------------------------------------------------------------------
# systemd

systemd_here() {
  [ -n "${SYSTEMCTL:-}" ] && return 0
  [ -z "$root" ] && [ -d /run/systemd/system ]
}

run_systemctl() {
  "${SYSTEMCTL:-systemctl}" "$@" </dev/null
}

start_service() {
  if [ $start = no ]; then
    say "not started (--no-start): systemctl enable --now $UNIT starts it"
    return 0
  fi
  if ! systemd_here; then
    say "systemd is not running here: start the agent with $INSTALL_DIR/bin/palisade-agent run --config $CONFIG --password-file $SECRET"
    return 0
  fi
  [ $unit_changed = no ] || run_systemctl daemon-reload
  run_systemctl is-enabled --quiet "$UNIT" >/dev/null 2>&1 || run_systemctl enable "$UNIT" >/dev/null 2>&1
  if run_systemctl is-active --quiet "$UNIT" >/dev/null 2>&1; then
    if [ $changed = yes ]; then
      run_systemctl restart "$UNIT"
      say "restarted $UNIT"
    else
      say "$UNIT is running; nothing changed"
    fi
  else
    run_systemctl start "$UNIT"
    say "started $UNIT (journalctl -u palisade-agent shows its log)"
  fi
}

# ---------------------------------------------------------------------------------------------
# Suricata: three lines, each marked so that --uninstall finds them again.

suricata_lines() {
  printf '  under rule-files:  - %s/palisade.rules\n' "$OUTPUT_DIR"
  printf '  at the end:        include: %s/variables.yaml\n' "$OUTPUT_DIR"
  printf '  at the end:        threshold-file: %s/threshold.config\n' "$OUTPUT_DIR"
}

edit_suricata_yaml() {
  _rules="  - $OUTPUT_DIR/palisade.rules  $MARK"
  _include="include: $OUTPUT_DIR/variables.yaml  $MARK"
  _threshold="threshold-file: $OUTPUT_DIR/threshold.config  $MARK"
  if grep -qxF "$_rules" "$1" && grep -qxF "$_include" "$1" && grep -qxF "$_threshold" "$1"; then
    return 1
  fi
  awk -v rules="$_rules" -v inc="$_include" -v threshold="$_threshold" -v mark="$MARK" '
    index($0, mark) > 0 { next }
    /^threshold-file:/ { print "#palisade-agent# " $0; next }
    { print }
    /^rule-files:[[:space:]]*$/ && !done { print rules; done = 1 }
    END {
      if (!done) { print "rule-files:  " mark; print rules }
      print inc
      print threshold
    }' "$1" >"$2" || die "could not edit $1"
}

configure_suricata() {
  if [ $configure_suricata = no ]; then
    if [ -f "$SURICATA_YAML" ] && grep -qF "$MARK" "$SURICATA_YAML"; then return 0; fi
    say "add these lines to suricata.yaml (or run again with --configure-suricata):"
    suricata_lines
    return 0
  fi
  [ -f "$SURICATA_YAML" ] || die "--configure-suricata: $SURICATA_YAML not found (is Suricata installed?)"
  edit_suricata_yaml "$SURICATA_YAML" "$stage/suricata.yaml" || {
    say "suricata.yaml already includes Palisade's files"
    return 0
  }
  # Suricata refuses a missing include: until the agent's first bundle, an empty one stands in.
  [ -e "$OUTPUT_DIR/variables.yaml" ] || printf '%%YAML 1.1\n---\nvars: {}\n' |
    write_file "$OUTPUT_DIR/variables.yaml" 644 "$AGENT_USER:$AGENT_USER"
  [ -e "$SURICATA_YAML.palisade-backup" ] || {
    cp -p "$SURICATA_YAML" "$SURICATA_YAML.palisade-backup"
    remember file "$SURICATA_YAML.palisade-backup"
  }
  cp -p "$SURICATA_YAML" "$stage/suricata.yaml.before"
  cp -p "$SURICATA_YAML" "$SURICATA_YAML.palisade-new"
  cat "$stage/suricata.yaml" >"$SURICATA_YAML.palisade-new"
  mv -f "$SURICATA_YAML.palisade-new" "$SURICATA_YAML"
  remember suricata "$SURICATA_YAML"
  if command -v suricata >/dev/null 2>&1; then
    if ! suricata -T -c "$SURICATA_YAML" -l "$stage" >"$stage/suricata-T.log" 2>&1 </dev/null; then
      cat "$stage/suricata.yaml.before" >"$SURICATA_YAML"
      tail -n 5 "$stage/suricata-T.log" >&2
      die "suricata -T rejects suricata.yaml with Palisade's lines: the file is restored as it was"
    fi
    say "added Palisade's files to $SURICATA_YAML (suricata -T accepts it; backup: $SURICATA_YAML.palisade-backup)"
  else
    say "added Palisade's files to $SURICATA_YAML (backup: $SURICATA_YAML.palisade-backup); suricata is not installed, so it was not checked"
  fi
}

unconfigure_suricata() {
  [ -f "$1" ] && grep -qF "$MARK" "$1" || return 0
  cp -p "$1" "$1.palisade-new"
  awk -v mark="$MARK" '
    index($0, mark) > 0 { next }
    /^#palisade-agent# / { sub(/^#palisade-agent# /, "") }
    { print }' "$1" >"$1.palisade-new"
  mv -f "$1.palisade-new" "$1"
  say "removed Palisade's lines from $1"
}

# ---------------------------------------------------------------------------------------------
# Suricata's files. A packaged Suricata runs as root and keeps eve.json (0640 or 0600) and its
# command socket root-only, so the agent could neither ship alerts nor reload rules. Rather than
# a capability or root's group, the agent's user gets POSIX ACL entries on exactly those objects,
# each noted in $RECORD so that --uninstall takes back those and nothing else.

# agent_can TEST PATH: whether the agent's user passes test(1) TEST on PATH.
agent_can() {
  if command -v runuser >/dev/null 2>&1; then
    runuser -u "$AGENT_USER" -- test "$1" "$2" </dev/null 2>/dev/null
  else
    su -s /bin/sh -c "test $1 $2" "$AGENT_USER" </dev/null 2>/dev/null
  fi
}

# grant_acl PATH ENTRY PERMS: ENTRY is u:USER or d:u:USER (a default entry), as setfacl takes it.
grant_acl() {
  _shown=$(printf '%s:%s' "$2" "$3" | sed 's/^d:/default:/; s/u:/user:/')
  getfacl -pc "$1" 2>/dev/null | grep -Eq "^$_shown([[:space:]]|\$)" && return 0
  # An object without an ACL gets it removed whole on --uninstall, mask and all, as it was.
  getfacl -pc "$1" 2>/dev/null | grep -Eqv '^(user|group|other)::|^$' || remember acl-plain "$1"
  setfacl -m "$2:$3" "$1" || die "setfacl -m $2:$3 $1 failed"
  remember acl "$2 $1"
  acl_changed=yes
}

# revoke_acl ENTRY PATH. What a default entry passed on to files made since goes with it. No
# mask is recalculated (-n): taking our entry away must widen nobody else's access.
revoke_acl() {
  [ -e "$2" ] || return 0
  command -v setfacl >/dev/null 2>&1 || {
    say "kept the ACL entry $1 on $2: setfacl is missing (install the acl package)"
    return 0
  }
  case $1 in
    d:*)
      setfacl -n -d -x "${1#d:}" "$2" 2>/dev/null || true
      for _child in "$2"/* "$2"/.[!.]*; do
        getfacl -pc "$_child" 2>/dev/null | grep -q "^user:${1#d:u:}:" || continue
        setfacl -n -x "${1#d:}" "$_child" 2>/dev/null || continue
        drop_empty_acl "$_child"
      done
      ;;
    *) setfacl -n -x "$1" "$2" 2>/dev/null || true ;;
  esac
  return 0
}

# Once no named entry is left, the mask and the default ACL's base entries are only what
# setfacl added beside ours: the object becomes plain again, its group keeping the access it
# had in effect (a file made under the default ACL has the folder's group entry, masked).
drop_empty_acl() {
  [ -e "$1" ] && command -v setfacl >/dev/null 2>&1 || return 0
  getfacl -pc "$1" 2>/dev/null | grep -Eqv '^(default:)?(user|group|other|mask)::|^$' && return 0
  _group=$(getfacl -pc "$1" 2>/dev/null | grep '^group::') || return 0
  _group=$(printf '%s' "${_group##*:}" | sed 's/-//g')
  if setfacl -b "$1" 2>/dev/null; then chmod "g=$_group" "$1"; fi
}

grant_suricata_access() {
  _eve_file=${eve:+$root$eve}
  _eve_dir=${_eve_file:+$(dirname "$_eve_file")}
  if [ -z "$_eve_dir" ] || [ ! -d "$_eve_dir" ]; then
    if [ ! -d "$SURICATA_RUN_DIR" ]; then
      say "Suricata is not installed or not started yet: once it is, run this script again (--server $server, no token needed) so that the agent can read eve.json and reload Suricata's rules"
      return 0
    fi
    _eve_dir=''
  fi
  if [ -n "$root" ] && { [ "$(id -u)" != 0 ] || ! id "$AGENT_USER" >/dev/null 2>&1; }; then
    say "(--root) would let $AGENT_USER read ${_eve_file:-eve.json} and use $SURICATA_SOCKET"
    return 0
  fi
  _need_eve=no _need_socket=no
  [ -z "$_eve_dir" ] || agent_can -r "$_eve_file" || _need_eve=yes
  [ ! -d "$SURICATA_RUN_DIR" ] || agent_can -w "$SURICATA_SOCKET" || _need_socket=yes
  [ $_need_eve = yes ] || [ $_need_socket = yes ] || return 0
  if ! command -v setfacl >/dev/null 2>&1; then
    say "$AGENT_USER cannot read $_eve_file or use $SURICATA_SOCKET: install the acl package (apt-get install acl) and run this script again"
    return 0
  fi
  acl_changed=no
  if [ $_need_eve = yes ]; then
    grant_acl "$_eve_dir" "u:$AGENT_USER" r-x
    grant_acl "$_eve_dir" "d:u:$AGENT_USER" r--
    [ ! -f "$_eve_file" ] || grant_acl "$_eve_file" "u:$AGENT_USER" r--
  fi
  if [ $_need_socket = yes ]; then
    # The socket before its folder: --uninstall then takes back the folder's default entry, and
    # with it the entry a socket made since inherited, before the socket's own.
    [ ! -S "$SURICATA_SOCKET" ] || grant_acl "$SURICATA_SOCKET" "u:$AGENT_USER" -w-
    agent_can -x "$SURICATA_RUN_DIR" || grant_acl "$SURICATA_RUN_DIR" "u:$AGENT_USER" --x
    grant_acl "$SURICATA_RUN_DIR" "d:u:$AGENT_USER" -w-
    write_suricata_dropin
  fi
  [ $acl_changed = no ] ||
    say "let $AGENT_USER read Suricata's eve.json and use its command socket (POSIX ACLs: getfacl shows them)"
}

# Suricata makes its socket 0660 less its umask at each start. Under systemd's default umask
# 0022 that is 0640, whose group bits become the socket's ACL mask and cut the write bit the
# default entry passes on: umask 0002 keeps it. The run folder is in /run, gone after a reboot,
# so Suricata's start first makes it as Suricata would (0750) and gives it the entries again.
write_suricata_dropin() {
  _was_changed=$changed
  changed=no
  make_dir "$(dirname "$SURICATA_DROPIN")" 755 root:root
  write_file "$SURICATA_DROPIN" 644 root:root <<EOF
# Written by the Palisade install script so that the agent's user ($AGENT_USER) can use
# Suricata's command socket; its --uninstall removes this file.
[Service]
UMask=0002
ExecStartPre=-$(command -v mkdir) -p -m 0750 $SURICATA_RUN_DIR
ExecStartPre=-$(command -v setfacl) -m u:$AGENT_USER:--x,d:u:$AGENT_USER:-w- $SURICATA_RUN_DIR
EOF
  [ $changed = no ] || unit_changed=yes
  changed=$_was_changed
}

# ---------------------------------------------------------------------------------------------

install_agent() {
  choose_flavor
  _enrolled=$(enrolled_device_id)
  if [ -z "$_enrolled" ] || [ $reenrol = yes ]; then check_token; fi
  download_release

  if [ -n "$_enrolled" ] && [ $reenrol = no ]; then
    device_id=$_enrolled
    say "already enrolled as device $device_id; keeping its credentials (--reenrol to replace them)"
  else
    enrol
  fi

  [ $eve_given = yes ] || { [ -d "$root/var/log/suricata" ] && eve=/var/log/suricata/eve.json; } || true
  [ -n "$reload_cmds" ] || reload_cmds=$(default_reload_cmds)

  changed=no
  make_dir "$ETC_DIR" 755 root:root tree
  ensure_user
  make_dir "$INSTALL_DIR" 755 "$AGENT_USER:$AGENT_USER" tree
  make_dir "$INSTALL_DIR/versions" 755 "$AGENT_USER:$AGENT_USER"
  make_dir "$INSTALL_DIR/versions/$version" 755 "$AGENT_USER:$AGENT_USER"
  make_dir "$INSTALL_DIR/bin" 755 root:root
  make_dir "$STATE_DIR" 750 "$AGENT_USER:$AGENT_USER" tree
  make_dir "$OUTPUT_DIR" 755 "$AGENT_USER:$AGENT_USER" tree
  make_dir "$(dirname "$UNIT_FILE")" 755 root:root
  make_dir "$(dirname "$BIN_LINK")" 755 root:root

  install_file "$stage/$agent_file" "$INSTALL_DIR/versions/$version/$agent_name" 755 \
    "$AGENT_USER:$AGENT_USER"
  install_link "versions/$version" "$INSTALL_DIR/current"
  install_file "$stage/upgrade-guard.sh" "$INSTALL_DIR/bin/upgrade-guard" 755 root:root
  write_launcher
  install_link "$INSTALL_DIR/bin/palisade-agent" "$BIN_LINK"
  if [ -s "$stage/agent.secret" ]; then
    install_file "$stage/agent.secret" "$SECRET" 600 root:root
  fi
  write_config
  _before=$changed
  changed=no
  write_unit
  unit_changed=$changed
  [ $_before = no ] || changed=yes

  say "installed agent $version ($flavor) for device $device_id in $INSTALL_DIR"
  configure_suricata
  grant_suricata_access
  start_service
}

uninstall_agent() {
  [ -f "$RECORD" ] ||
    die "nothing to remove: $RECORD is missing (the agent was not installed by this script under ${root:-/})"
  if [ -f "$UNIT_FILE" ] && systemd_here; then
    run_systemctl disable --now "$UNIT" >/dev/null 2>&1 || true
  fi
  if grep -q '^suricata ' "$RECORD"; then unconfigure_suricata "$SURICATA_YAML"; fi
  # Newest first, so a folder comes after what was created inside it.
  sed -n '1!G;h;$p' "$RECORD" >"$stage/record"
  while read -r _kind _path; do
    case $_kind in
      file | link) rm -f "$_path" ;;
      tree) rm -rf "$_path" ;;
      dir) rmdir "$_path" 2>/dev/null || say "kept $_path: it holds files this script did not create" ;;
      user)
        if [ -n "${USERDEL:-}" ] || [ -z "$root" ]; then
          "${USERDEL:-userdel}" "$_path" </dev/null || say "could not remove the user $_path"
        fi
        ;;
      acl) revoke_acl "${_path%% *}" "${_path#* }" ;;
      acl-plain) drop_empty_acl "$_path" ;;
      suricata) ;;
    esac
  done <"$stage/record"
  rm -f "$RECORD"
  if systemd_here; then run_systemctl daemon-reload || true; fi
  say "removed the Palisade agent; Suricata's own files (eve.json, rules) are untouched"
}

main() {
  parse_options "$@"
  set_paths
  stage=$(mktemp -d "${TMPDIR:-/tmp}/palisade-install.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  trap 'exit 130' INT TERM
  if [ $uninstall = yes ]; then uninstall_agent; else install_agent; fi
}

# Everything above is only definitions: a download cut short runs nothing.
main "$@"
