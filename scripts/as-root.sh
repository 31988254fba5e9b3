# as-root.sh - sourced by scripts/deps.sh and scripts/ros-trees.sh:
# as_root CMD ARGS... runs CMD as root (directly, or through password-less
# sudo); otherwise says what needs root and fails.
as_root() {
	if ((EUID == 0)); then
		"$@"
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		sudo -n "$@"
	else
		echo "deps: '$*' needs root; run 'sudo make deps'" >&2
		return 1
	fi
}
