# shellcheck shell=bash
# hosts.sh - several simulated hosts on one machine, for tests of
# multi-host tracing (sourced by bash test scripts; needs root, iproute2,
# util-linux's unshare/nsenter, lttng-tools).
#
# Each host is
#   - a network namespace (ip netns add) with lo up and one veth, eth0,
#     whose other end is a port of a Linux bridge in the analysis side's
#     namespace: every host and the analysis side share one private subnet
#     10.77.N.0/24 (N from the PID), nothing routed, no default route, so
#     DDS and LTTng traffic never reaches the machine's real interfaces;
#   - a mount namespace where /run/lttng (= /var/run/lttng: the session
#     daemon's sockets, the apps' registration socket lttng-ust-sock-8) and
#     /dev/shm (LTTng's wait shm, the ring buffers) are private tmpfs, so
#     a session daemon started in the host sees only the host's apps and
#     the host's apps register only with it (`ip netns exec` alone shares
#     /run/lttng with the machine: the host's apps would register with the
#     machine's session daemon); /run/lock too (caret record allows one
#     recorder per machine by a lock there);
#   - a UTS namespace with its own hostname (hostA, hostB...): lttng-relayd
#     files each trace under the sending session daemon's hostname.
# A holder process (`sleep infinity`) keeps the three namespaces; host_exec
# enters them with nsenter. The analysis side is the same minus the UTS
# namespace: its own network namespace (the bridge, address 10.77.N.1) and
# mount namespace (a private /run/lttng for lttng-relayd's health socket).
# The machine's own network namespace and /run/lttng are never touched, so
# a session daemon running on the machine and other tests are undisturbed,
# and tests using this library may run in parallel (names carry the PID).
#
# Functions:
#   hosts_setup N           create N hosts A, B, ... (N <= 26) and the
#                           analysis side; registers hosts_teardown at exit
#   host_exec NAME CMD...   run CMD inside host NAME (foreground)
#   host_spawn NAME CMD...  the same in the background; HOSTS_LAST_PID is
#                           CMD's own pid (wait on it, kill it)
#   hosts_analysis_exec CMD...  run CMD on the analysis side
#   hosts_sessiond_start NAME   the host's own root lttng-sessiond
#   hosts_relayd_start OUTDIR   one lttng-relayd on the analysis side,
#                           listening on $HOSTS_RELAYD_ADDR (live port on
#                           every address of the analysis side)
#   hosts_teardown          remove everything (idempotent)
#   hosts_gc                remove what a SIGKILLed run left (hosts_setup
#                           calls it)
#
# Variables (after hosts_setup), for each host X:
#   HOST_X_ADDR      its address on the subnet (10.77.N.10, .11, ...)
#   HOST_X_HOSTNAME  its hostname (hostX; prefix: HOSTS_HOSTNAME_PREFIX)
#   HOST_X_NETNS     its network namespace's name
#   HOST_X_PID       its holder's pid
#   HOST_X_DIR       its scratch directory (DDS configuration files)
#   HOST_X_CYCLONEDDS_URI, HOST_X_FASTDDS_PROFILE  DDS on eth0 only, no
#                    multicast, every host's address as a unicast peer
#                    (host_exec exports both)
# and HOSTS_NAMES (array), HOSTS_DIR, HOSTS_SUBNET (10.77.N), HOSTS_RELAYD_ADDR,
# HOSTS_ANALYSIS_NETNS, HOSTS_ANALYSIS_PID, HOSTS_RELAYD_PID, HOSTS_SESSIOND_PIDS
# (associative: NAME -> pid). HOSTS_KEEP=1 keeps HOSTS_DIR.

HOSTS_NAMES=()
HOSTS_DIR=
HOSTS_ID=
HOSTS_SUBNET=
HOSTS_RELAYD_ADDR=
HOSTS_RELAYD_PID=
HOSTS_ANALYSIS_NETNS=
HOSTS_ANALYSIS_PID=
HOSTS_LAST_PID=
declare -gA HOSTS_SESSIOND_PIDS=()
_hosts_netns=()     # every namespace created, for teardown
_hosts_holders=()   # every holder pid, for teardown
_hosts_trap_set=
_hosts_netns_marker=/run/caret-hosts.netns # we made /run/netns: "dir" or "mount"

_hosts_log() { echo "hosts: $*" >&2; }

# The value of HOST_<name>_<field> (the per-host variables).
_hosts_var() { local v="HOST_$1_$2"; printf '%s' "${!v:-}"; }

# Waits until pid $1 has exited, up to $2 tenths of a second.
_hosts_wait_gone() {
	local pid=$1 n=${2:-50} i
	for ((i = 0; i < n; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		# a child of this shell stays a zombie until reaped
		[[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) == Z ]] &&
			{ wait "$pid" 2>/dev/null; return 0; }
		sleep 0.1
	done
	return 1
}

# Ends pid $1 (TERM, then KILL after 5 s) and reaps it if it is our child.
_hosts_kill() {
	local pid=$1
	[[ -n $pid ]] || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	_hosts_wait_gone "$pid" 50 || { kill -KILL "$pid" 2>/dev/null; _hosts_wait_gone "$pid" 20 || true; }
	wait "$pid" 2>/dev/null || true
}

# Starts a holder: a `sleep infinity` in the network namespace $1 with a
# private mount namespace where /run/lttng, /dev/shm and /run/lock (caret
# record's one-recorder-per-machine lock) are empty tmpfs,
# and with hostname $2 in its own UTS namespace when $2 is not empty.
# `ip netns exec` moves it into the network namespace; unshare gives it
# private mounts (propagation private: nothing leaks back to the machine)
# and the UTS namespace. It execs sleep: $! stays its pid. It says it is
# ready by creating the file $3.
_hosts_holder() {
	local netns=$1 hostname=$2 ready=$3 uts=() i
	[[ -n $hostname ]] && uts=(--uts)
	# shellcheck disable=SC2016 # $1, $2: the inner shell's arguments
	ip netns exec "$netns" unshare --mount "${uts[@]}" --propagation private -- sh -c '
		set -e
		mkdir -p /run/lttng
		mount -t tmpfs -o mode=0755 caret-hosts-lttng /run/lttng
		mount -t tmpfs -o mode=1777 caret-hosts-shm /dev/shm
		mkdir -p /run/lock
		mount -t tmpfs -o mode=1777 caret-hosts-lock /run/lock
		if [ -n "$1" ]; then hostname "$1"; fi
		: >"$2"
		exec sleep infinity' holder "$hostname" "$ready" </dev/null >/dev/null 2>"$ready.err" &
	HOSTS_LAST_PID=$!
	_hosts_holders+=("$HOSTS_LAST_PID")
	for ((i = 0; i < 100; i++)); do
		[[ -e $ready ]] && return 0
		kill -0 "$HOSTS_LAST_PID" 2>/dev/null || break
		sleep 0.05
	done
	_hosts_log "namespace holder for $netns did not start: $(cat "$ready.err" 2>/dev/null)"
	return 1
}

# Writes the host's DDS configurations: Cyclone DDS and Fast DDS pinned to
# the host's address, no multicast (the bridge would carry it, but
# unicast discovery is what a locked-down robot LAN gets and it is
# deterministic), and every host's address as a peer, its own included
# (processes of the same host find each other through it).
_hosts_dds_config() {
	local name=$1 addr=$2 dir=$3 peers='' fpeers='' h
	for h in "${HOSTS_NAMES[@]}"; do
		peers+="<Peer address=\"$(_hosts_var "$h" ADDR)\"/>"
		fpeers+="<locator><udpv4><address>$(_hosts_var "$h" ADDR)</address></udpv4></locator>"
	done
	cat >"$dir/cyclonedds.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- host $name: Cyclone DDS on eth0 ($addr) only, unicast discovery of every simulated host -->
<CycloneDDS>
  <Domain>
    <General>
      <Interfaces><NetworkInterface address="$addr"/></Interfaces>
      <AllowMulticast>false</AllowMulticast>
    </General>
    <Discovery>
      <ParticipantIndex>auto</ParticipantIndex>
      <MaxAutoParticipantIndex>60</MaxAutoParticipantIndex>
      <Peers>$peers</Peers>
    </Discovery>
  </Domain>
</CycloneDDS>
EOF
	cat >"$dir/fastdds.xml" <<EOF
<?xml version="1.0" encoding="UTF-8" ?>
<!-- host $name: Fast DDS on eth0 ($addr) only, no multicast (as scripts/fastdds-loopback.xml) -->
<profiles xmlns="http://www.eprosima.com/XMLSchemas/fastRTPS_Profiles">
  <transport_descriptors>
    <transport_descriptor>
      <transport_id>host_udp</transport_id>
      <type>UDPv4</type>
      <maxInitialPeersRange>60</maxInitialPeersRange>
      <interfaceWhiteList><address>$addr</address></interfaceWhiteList>
    </transport_descriptor>
  </transport_descriptors>
  <participant profile_name="host_only" is_default_profile="true">
    <rtps>
      <userTransports><transport_id>host_udp</transport_id></userTransports>
      <useBuiltinTransports>false</useBuiltinTransports>
      <defaultUnicastLocatorList>
        <locator><udpv4><address>$addr</address></udpv4></locator>
      </defaultUnicastLocatorList>
      <builtin>
        <discovery_config>
          <initialAnnouncements>
            <count>20</count>
            <period><nanosec>100000000</nanosec></period>
          </initialAnnouncements>
        </discovery_config>
        <metatrafficUnicastLocatorList>
          <locator><udpv4><address>$addr</address></udpv4></locator>
        </metatrafficUnicastLocatorList>
        <initialPeersList>$fpeers</initialPeersList>
      </builtin>
    </rtps>
  </participant>
</profiles>
EOF
	printf -v "HOST_${name}_CYCLONEDDS_URI" '%s' "file://$dir/cyclonedds.xml"
	printf -v "HOST_${name}_FASTDDS_PROFILE" '%s' "$dir/fastdds.xml"
}

# Creates N hosts and the analysis side (see the top of the file). On
# failure everything made so far is removed again.
hosts_setup() {
	local n=${1:-2} i name addr ns letters=ABCDEFGHIJKLMNOPQRSTUVWXYZ
	if ((n < 1 || n > 26)); then
		_hosts_log "hosts_setup: 1 to 26 hosts, not '$n'"
		return 1
	fi
	if [[ -n $HOSTS_DIR ]]; then
		_hosts_log "hosts_setup: already set up ($HOSTS_DIR)"
		return 1
	fi
	if ((EUID != 0)); then
		_hosts_log "hosts_setup: needs root (network and mount namespaces)"
		return 1
	fi
	_hosts_register_trap
	hosts_gc
	# `ip netns add` makes /run/netns (a directory, then a shared bind
	# mount of itself) the first time. When neither was there, the marker
	# file says this library made them, for whichever of the tests using
	# them at the same time ends last to undo (hosts_teardown).
	if ! mountpoint -q /run/netns 2>/dev/null; then
		[[ -d /run/netns ]] && echo mount >"$_hosts_netns_marker" || echo dir >"$_hosts_netns_marker"
	fi
	HOSTS_ID=$$
	# 10.77.20.0/24 .. 10.77.219.0/24: from the PID, for readability only
	# (each test's subnet lives in its own namespaces and cannot collide)
	HOSTS_SUBNET=10.77.$((HOSTS_ID % 200 + 20))
	HOSTS_RELAYD_ADDR=$HOSTS_SUBNET.1
	HOSTS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/caret-hosts-$HOSTS_ID.XXXXXX") || return 1
	chmod 755 "$HOSTS_DIR"
	HOSTS_NAMES=()
	for ((i = 0; i < n; i++)); do
		HOSTS_NAMES+=("${letters:i:1}")
	done

	# The analysis side: its namespace, the bridge every host is plugged in.
	HOSTS_ANALYSIS_NETNS=caret-$HOSTS_ID-an
	ip netns add "$HOSTS_ANALYSIS_NETNS" || { hosts_teardown; return 1; }
	_hosts_netns+=("$HOSTS_ANALYSIS_NETNS")
	ns=$HOSTS_ANALYSIS_NETNS
	if ! { ip -n "$ns" link set lo up &&
		ip -n "$ns" link add br0 type bridge &&
		ip -n "$ns" addr add "$HOSTS_RELAYD_ADDR/24" dev br0 &&
		ip -n "$ns" link set br0 up; }; then
		hosts_teardown
		return 1
	fi

	for ((i = 0; i < n; i++)); do
		name=${HOSTS_NAMES[i]}
		addr=$HOSTS_SUBNET.$((10 + i))
		ns=caret-$HOSTS_ID-$name
		printf -v "HOST_${name}_ADDR" '%s' "$addr"
		printf -v "HOST_${name}_NETNS" '%s' "$ns"
		printf -v "HOST_${name}_HOSTNAME" '%s' "${HOSTS_HOSTNAME_PREFIX:-host}$name"
		printf -v "HOST_${name}_DIR" '%s' "$HOSTS_DIR/$name"
		mkdir -p "$HOSTS_DIR/$name/home"
		ip netns add "$ns" || { hosts_teardown; return 1; }
		_hosts_netns+=("$ns")
		# The veth pair is created in the analysis namespace with its peer
		# directly in the host's: no interface ever appears on the machine.
		if ! { ip -n "$ns" link set lo up &&
			ip -n "$HOSTS_ANALYSIS_NETNS" link add "v$name" type veth peer name eth0 netns "$ns" &&
			ip -n "$HOSTS_ANALYSIS_NETNS" link set "v$name" master br0 up &&
			ip -n "$ns" addr add "$addr/24" dev eth0 &&
			ip -n "$ns" link set eth0 up; }; then
			hosts_teardown
			return 1
		fi
	done
	for name in "${HOSTS_NAMES[@]}"; do
		_hosts_dds_config "$name" "$(_hosts_var "$name" ADDR)" "$HOSTS_DIR/$name"
		_hosts_holder "$(_hosts_var "$name" NETNS)" "$(_hosts_var "$name" HOSTNAME)" \
			"$HOSTS_DIR/$name/ready" || { hosts_teardown; return 1; }
		printf -v "HOST_${name}_PID" '%s' "$HOSTS_LAST_PID"
	done
	_hosts_holder "$HOSTS_ANALYSIS_NETNS" '' "$HOSTS_DIR/analysis.ready" || { hosts_teardown; return 1; }
	HOSTS_ANALYSIS_PID=$HOSTS_LAST_PID
	# The links come up asynchronously: wait until every host's eth0 is up
	# and its bridge port forwards (at most 5 s; no ping on minimal systems).
	for name in "${HOSTS_NAMES[@]}"; do
		for ((i = 0; i < 50; i++)); do
			ip -n "$(_hosts_var "$name" NETNS)" -o link show eth0 | grep -q 'state UP' &&
				bridge -n "$HOSTS_ANALYSIS_NETNS" -o link show dev "v$name" | grep -q 'state forwarding' &&
				break
			sleep 0.1
		done
		((i < 50)) || { _hosts_log "host $name: link to the analysis side not up"; hosts_teardown; return 1; }
	done
}

# Removes what a run killed by SIGKILL (no trap runs) left behind: the
# namespaces caret-PID-* of a PID that no longer runs, with the processes
# still in them (its holders, session daemons, relayd, apps: only this
# library puts processes there). A PID reused since is taken as alive: its
# namespaces stay (the safe side). Its scratch directory too, unless kept
# on purpose (HOSTS_KEEP=1).
hosts_gc() {
	local f name owner p
	for f in /run/netns/caret-*-*; do
		[[ -e $f ]] || continue
		name=${f#/run/netns/}
		owner=${name#caret-}
		owner=${owner%%-*}
		[[ $owner =~ ^[0-9]+$ ]] || continue
		kill -0 "$owner" 2>/dev/null && continue
		for p in /proc/[0-9]*; do
			p=${p#/proc/}
			if [[ /proc/$p/ns/net -ef $f ]]; then kill -KILL "$p" 2>/dev/null || true; fi
		done
		_hosts_log "removing $name, left by pid $owner"
		ip netns del "$name" || true
	done
	for f in "${TMPDIR:-/tmp}"/caret-hosts-*.*; do
		[[ -d $f && ! -e $f/.kept ]] || continue
		owner=${f##*/caret-hosts-}
		owner=${owner%%.*}
		[[ $owner =~ ^[0-9]+$ ]] || continue
		kill -0 "$owner" 2>/dev/null && continue
		rm -rf "$f"
	done
	return 0
}

# The nsenter prefix of host $1: its holder's network, mount and UTS
# namespaces, in the caller's working directory (entering a mount
# namespace otherwise moves to its root).
_hosts_enter() {
	local pid
	pid=$(_hosts_var "$1" PID)
	if [[ -z $pid ]]; then
		_hosts_log "no host '$1' (hosts: ${HOSTS_NAMES[*]})"
		return 1
	fi
	_hosts_cmd=(nsenter --target "$pid" --net --mount --uts --wd="$PWD" --
		env -u ROS_LOCALHOST_ONLY -u ROS_AUTOMATIC_DISCOVERY_RANGE -u ROS_STATIC_PEERS
		"CARET_HOST=$1" "LTTNG_HOME=$(_hosts_var "$1" DIR)/home"
		"CYCLONEDDS_URI=$(_hosts_var "$1" CYCLONEDDS_URI)"
		"FASTRTPS_DEFAULT_PROFILES_FILE=$(_hosts_var "$1" FASTDDS_PROFILE)")
}

# Runs CMD inside host NAME, with the host's DDS configuration in the
# environment (CYCLONEDDS_URI, FASTRTPS_DEFAULT_PROFILES_FILE replace the
# caller's loopback ones, which would keep DDS inside the host;
# ROS_LOCALHOST_ONLY is dropped: with an interface-pinned URI Humble's
# rmw_cyclonedds_cpp fails), LTTNG_HOME=the host's own directory (the lttng
# CLI keeps its current session in $LTTNG_HOME/.lttngrc: with a shared
# HOME, `lttng create` in one host would change the session a bare
# `lttng stop` means in another) and CARET_HOST=NAME. No PID namespace: pids
# stay unique machine-wide, as on separate machines they would rarely
# collide.
host_exec() {
	local name=$1 _hosts_cmd
	shift
	_hosts_enter "$name" || return 1
	"${_hosts_cmd[@]}" "$@"
}

# host_exec in the background. nsenter and env exec the command (no fork:
# no PID namespace is entered), so HOSTS_LAST_PID is the command itself;
# it is this shell's child (wait works).
host_spawn() {
	local name=$1 _hosts_cmd
	shift
	_hosts_enter "$name" || return 1
	"${_hosts_cmd[@]}" "$@" &
	HOSTS_LAST_PID=$!
}

# Runs CMD on the analysis side (the bridge's namespace, private /run/lttng):
# e.g. an LTTng live viewer of the relayd.
hosts_analysis_exec() {
	nsenter --target "$HOSTS_ANALYSIS_PID" --net --mount --wd="$PWD" -- "$@"
}

# Starts host NAME's own root session daemon (no kernel tracer). Its
# rundir is the host's private /run/lttng, so it neither sees nor
# disturbs a session daemon of the machine, and the host's apps register
# with it. --daemonize returns once it accepts commands; its pid comes
# from the pid file in that rundir.
hosts_sessiond_start() {
	local name=$1 pid i
	host_exec "$name" lttng-sessiond --daemonize --no-kernel >"$HOSTS_DIR/$name/sessiond.log" 2>&1 || {
		_hosts_log "lttng-sessiond in host $name: $(cat "$HOSTS_DIR/$name/sessiond.log")"
		return 1
	}
	for ((i = 0; i < 50; i++)); do
		pid=$(host_exec "$name" cat /run/lttng/lttng-sessiond.pid 2>/dev/null) && [[ -n $pid ]] && break
		sleep 0.1
	done
	[[ -n $pid ]] || { _hosts_log "host $name: no session daemon pid file"; return 1; }
	HOSTS_SESSIOND_PIDS[$name]=$pid
}

# Starts lttng-relayd on the analysis side, writing under OUTDIR
# (OUTDIR/HOSTNAME/SESSION-DATE-TIME/...). Control and data ports
# (5342, 5343) on the bridge's address, where every host reaches it; the
# live port (5344) on every address of the analysis side (the bridge and
# its own lo). Not --daemonize but a background job of this shell: $! is
# its pid. Returns once the control port listens.
hosts_relayd_start() {
	local out=$1 i
	mkdir -p "$out" || return 1
	out=$(cd "$out" && pwd) # (nsenter --mount starts it in /)
	nsenter --target "$HOSTS_ANALYSIS_PID" --net --mount -- lttng-relayd --output="$out" \
		--control-port="tcp://$HOSTS_RELAYD_ADDR:5342" --data-port="tcp://$HOSTS_RELAYD_ADDR:5343" \
		--live-port=tcp://0.0.0.0:5344 </dev/null >"$HOSTS_DIR/relayd.log" 2>&1 &
	HOSTS_RELAYD_PID=$!
	for ((i = 0; i < 100; i++)); do
		hosts_analysis_exec ss -Hltn "sport = :5342" 2>/dev/null | grep -q . && return 0
		kill -0 "$HOSTS_RELAYD_PID" 2>/dev/null || break
		sleep 0.05
	done
	_hosts_log "lttng-relayd did not start: $(cat "$HOSTS_DIR/relayd.log")"
	return 1
}

# The pids of the processes in the mount namespace of holder $1, the
# holder excepted: what host_exec started there and their children (the
# session daemon's consumer daemons...). Only this library's processes
# can be there: the namespace exists only for them.
_hosts_members() {
	local holder=$1 p
	[[ -e /proc/$holder/ns/mnt ]] || return 0
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p == "$holder" ]] && continue
		# -ef: the same nsfs inode, i.e. the same namespace (no fork per pid)
		if [[ /proc/$p/ns/mnt -ef /proc/$holder/ns/mnt ]]; then echo "$p"; fi
	done
	return 0
}

# Removes everything hosts_setup and the functions above made, in order:
# the session daemons (TERM: they end their consumer daemons), whatever
# else still runs in a host, the relayd, the holders (their private mounts
# go with their mount namespaces), the network namespaces (their veths and
# the bridge go with them), the scratch directory. Safe to call twice and
# after a partial setup.
hosts_teardown() {
	local name pid h
	for name in "${!HOSTS_SESSIOND_PIDS[@]}"; do
		_hosts_kill "${HOSTS_SESSIOND_PIDS[$name]}"
	done
	HOSTS_SESSIOND_PIDS=()
	for h in "${_hosts_holders[@]}"; do
		for pid in $(_hosts_members "$h"); do
			[[ $pid == "$HOSTS_RELAYD_PID" ]] && continue
			kill -TERM "$pid" 2>/dev/null || true
		done
	done
	_hosts_kill "$HOSTS_RELAYD_PID"
	HOSTS_RELAYD_PID=
	for h in "${_hosts_holders[@]}"; do
		for pid in $(_hosts_members "$h"); do
			_hosts_wait_gone "$pid" 30 || kill -KILL "$pid" 2>/dev/null || true
		done
		_hosts_kill "$h"
	done
	_hosts_holders=()
	for h in "${_hosts_netns[@]}"; do
		[[ -e /run/netns/$h ]] || continue # (a subshell's teardown did it)
		ip netns del "$h" || _hosts_log "cannot delete network namespace $h"
	done
	_hosts_netns=()
	# iproute2's /run/netns, when this library made it (the marker) and no
	# namespace is left in it (another test's); umount fails if busy.
	if [[ -e $_hosts_netns_marker && -d /run/netns && -z $(ls -A /run/netns 2>/dev/null) ]]; then
		if mountpoint -q /run/netns; then umount /run/netns || true; fi
		if [[ $(cat "$_hosts_netns_marker" 2>/dev/null) == dir ]]; then rmdir /run/netns 2>/dev/null || true; fi
		rm -f "$_hosts_netns_marker"
	fi
	if [[ -n $HOSTS_DIR && ${HOSTS_KEEP:-0} != 1 ]]; then
		rm -rf "$HOSTS_DIR"
	elif [[ -d $HOSTS_DIR ]]; then
		: >"$HOSTS_DIR/.kept" # (hosts_gc leaves it)
	fi
	for name in "${HOSTS_NAMES[@]}"; do
		unset "HOST_${name}_ADDR" "HOST_${name}_NETNS" "HOST_${name}_HOSTNAME" "HOST_${name}_DIR" \
			"HOST_${name}_PID" "HOST_${name}_CYCLONEDDS_URI" "HOST_${name}_FASTDDS_PROFILE"
	done
	HOSTS_DIR=
	HOSTS_NAMES=()
	HOSTS_ANALYSIS_PID=
}

# Teardown on every exit: through scripts/lttng-session.sh's caret_at_exit
# when the test uses it (it owns the EXIT trap), else an EXIT trap of our
# own; INT, TERM and HUP become exits so the trap runs.
_hosts_register_trap() {
	[[ -n $_hosts_trap_set ]] && return 0
	_hosts_trap_set=1
	if declare -F caret_at_exit >/dev/null; then
		caret_at_exit hosts_teardown
	else
		trap 'hosts_teardown' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
		trap 'exit 129' HUP
	fi
}
