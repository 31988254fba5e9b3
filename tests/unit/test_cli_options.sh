#!/usr/bin/env bash
# Completion and options (issue 44, item 8). Bash completion
# (packaging/caret.bash) against what each verb takes: for every verb of
# `caret --help` and every sub-verb, each option completion offers is one
# the verb accepts (`caret record --<TAB>` offered --watch, which record
# rejects), each option its usage and option lines name that the verb
# accepts is offered, and the sub-verbs are offered where a verb has them
# (`caret latency <TAB>` offered file names). An option is accepted when
# caret answers it otherwise than an option that does not exist (its name
# made neutral in the answer). And the messages: an unknown option in one
# line naming the verb and the option (record printed its whole help), a
# duration without its unit said so with the units.
# usage: test_cli_options.sh BIN_DIR SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
caret=$bin/caret
export PATH=$bin:$PATH
failures=0
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# offered WORDS...: what completion offers for the last word
offered() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _caret
		printf "%s\n" "${COMPREPLY[@]}"' _ "$src/packaging/caret.bash" caret "$@" </dev/null
}

# answer FORM WORDS... OPTION: caret's exit status and first line for
# "WORDS OPTION=x --help" (FORM value) or "WORDS OPTION --help" (FORM flag),
# OPTION written OPT
answer() {
	local form=$1 opt=${!#} out status=0
	local words=("${@:2:$#-2}")
	if [[ $form == value ]]; then
		out=$(timeout 5 "$caret" "${words[@]}" "$opt=x" --help 2>&1 </dev/null) || status=$?
	else
		out=$(timeout 5 "$caret" "${words[@]}" "$opt" --help 2>&1 </dev/null) || status=$?
	fi
	echo "$status ${out%%$'\n'*}" | sed "s/$opt/OPT/g"
}
unknown=--no-such-option
# accepts WORDS... OPTION: the verb takes OPTION; the flag form is tried
# only when the value form is answered as an unknown option (--merge, taken
# off by main.c by its exact name): an option taking a value would take
# --help for it and run
accepts() {
	local words=("${@:1:$#-1}") opt=${!#}
	[[ $(answer value "${words[@]}" "$opt") != "$(answer value "${words[@]}" "$unknown")" ]] &&
		return 0
	[[ $(answer flag "${words[@]}" "$opt") != "$(answer flag "${words[@]}" "$unknown")" ]]
}

# check_verb WORDS...: the options offered after WORDS against the verb's
check_verb() {
	local opt named=() checked=0
	# the options the usage (up to its first blank line) and the option
	# lines ("  -o, --output FILE  ...") name
	mapfile -t named < <("$caret" "$@" --help 2>&1 |
		awk 'NR == 1, /^$/ { print; next } match($0, /^ +-/) && RLENGTH <= 7' |
		grep -oE -- '--[a-z][a-z0-9_-]*' |
		sort -u)
	local offers
	offers=$(offered "$@" --)
	"$caret" "$@" --help >/dev/null 2>&1 || fail "caret $* --help fails"
	grep -qx -- --help <<<"$offers" || fail "caret $* --<TAB> does not offer --help"
	for opt in $offers; do
		[[ $opt == --help ]] && continue # its answer is the help, whatever follows
		checked=$((checked + 1))
		accepts "$@" "$opt" || fail "caret $* --<TAB> offers $opt, which caret $* rejects"
	done
	for opt in "${named[@]}"; do
		grep -qxF -- "$opt" <<<"$offers" && continue
		[[ $opt == --help ]] && continue
		accepts "$@" "$opt" && fail "caret $* takes $opt (its --help names it), not offered"
	done
	echo "ok caret $* --<TAB>: $checked options, each accepted; every option --help names and it takes offered"
}

mapfile -t verbs < <("$caret" --help | sed -n 's/^  \([a-z_][a-z_]*\) .*/\1/p')
((${#verbs[@]} > 10)) || fail "caret --help lists ${#verbs[@]} verbs"
for verb in "${verbs[@]}"; do
	subs=$(offered "$verb" "")
	# a verb with sub-verbs: its usage names them, completion offers them
	# and each is accepted
	usage_subs=$("$caret" "$verb" --help 2>&1 | sed -n "1,/^\$/p" |
		grep -oE "caret $verb [a-z_|]+" | sed "s/caret $verb //" | tr '|' '\n' | sort -u)
	if [[ -n $usage_subs ]]; then
		[[ $subs == "$usage_subs" ]] ||
			fail "caret $verb <TAB> offers '$(echo $subs)', its usage names '$(echo $usage_subs)'"
		for sub in $usage_subs; do
			check_verb "$verb" "$sub"
		done
		echo "ok caret $verb <TAB>: $(echo $subs)"
	else
		check_verb "$verb"
	fi
done
# the cases of the issue, said plainly (the offers taken whole: grep -q
# would end the pipe early)
offers=$(offered record --)
grep -qx -- --watch <<<"$offers" && fail "caret record --<TAB> offers --watch"
[[ $(offered latency "" | tr '\n' ' ') == "actions callbacks nodes services tf timers topics " ]] ||
	fail "caret latency <TAB>: $(offered latency "" | tr '\n' ' ')"
[[ $(offered summary "" | tr '\n' ' ') == "events nodes topics " ]] ||
	fail "caret summary <TAB>: $(offered summary "" | tr '\n' ' ')"
# record -- CMD: a command, not an option
offers=$(offered record -o out -- l)
grep -qx ls <<<"$offers" || fail "caret record -o out -- l<TAB> offers no command (ls)"

# ---- the messages --------------------------------------------------------
# says STATUS TEXT COMMAND...: exits STATUS, one line on stderr holding TEXT
says() {
	local want=$1 text=$2 status=0 err
	shift 2
	err=$(timeout 10 "$@" 2>&1 >/dev/null </dev/null) || status=$?
	((status == want)) || fail "$*: exit $status, expected $want: $err"
	grep -qF -- "$text" <<<"$err" || fail "$*: no '$text' in: $err"
	(($(grep -c . <<<"$err") == 1)) || fail "$*: not one line: $err"
	echo "ok caret ${*:2}: $err"
}
says 2 "caret record: unrecognized option '--watch'" "$caret" record --watch
says 2 "caret record: unexpected argument 'x' (a command to launch goes after --" \
	"$caret" record x
says 2 "caret path latency: unrecognized option '--watch'" "$caret" path latency --watch
says 2 "caret summary nodes: unrecognized option '--watch'" "$caret" summary nodes --watch
units="(a duration such as 50ms, 1.5s, 200us, more than 0 s and at most 86400 s; units: ns, us, ms, s)"
says 2 "caret live: bad value '30' for --deadline: the unit is missing $units" \
	"$caret" live --nodes /a,/b --deadline 30
says 2 "caret live: bad value '30m' for --deadline: unknown unit $units" \
	"$caret" live --nodes /a,/b --deadline 30m

echo "$failures failures"
((failures == 0))
