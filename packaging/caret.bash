# bash completion for caret (caret-c): verbs, their sub-verbs and options
# as `caret VERB --help` states them (the original's verbs, check_ctf...,
# and their --long_options too), files for traces, directories where a
# folder is asked, the named paths of an architecture file (that of --arch,
# or verify_paths' FILE), and commands after record's "--".
# tests/unit/test_completion.sh checks every verb's options against what
# the verb accepts.
_caret_named_paths()
{
	local i arch=
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == --arch ]] && arch=${COMP_WORDS[i + 1]}
	done
	[[ ${COMP_WORDS[1]} == verify_paths && ${COMP_WORDS[2]} != -* ]] && arch=${COMP_WORDS[2]}
	[[ -r $arch ]] || return
	sed -n 's/^[[:space:]-]*path_name:[[:space:]]*//p' "$arch" | tr -d "\"'"
}

# _caret_subverbs HELP VERB: the sub-verbs of VERB's synopsis (its lines up
# to the first blank one): "caret VERB a|b|c ..." or a line per sub-verb
_caret_subverbs()
{
	awk -v verb="$2" '/^$/ { exit }
		{ for (i = 1; i + 2 <= NF; i++) if ($i == "caret" && $(i + 1) == verb) print $(i + 2) }' \
		<<<"$1" | tr '|' '\n' | grep -xE '[a-z_]+' | sort -u
}

# _caret_options HELP VERB [SUB]: the long options of VERB (of SUB, one of
# its sub-verbs): those of the synopsis and those the option lines begin
# with ("  -s, --session NAME, --session-name NAME  description"), not their
# descriptions' words; for SUB, without those the synopsis gives another
# sub-verb alone; and --help
_caret_options()
{
	awk -v verb="$2" -v want="$3" '
	function take(line, into,   n, w, i) {
		n = split(line, w, /[][ |(),=]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^--[a-z][a-z0-9_-]*$/)
				into[w[i]] = 1
	}
	synopsis && /^$/ { synopsis = 0 }
	synopsis {
		for (i = 1; i + 2 <= NF; i++)
			if ($i == "caret" && $(i + 1) == verb && $(i + 2) ~ /^[a-z_|]+$/)
				current = ("|" $(i + 2) "|") ~ ("[|]" want "[|]") ? want : $(i + 2)
		if (want == "" || current == want)
			take($0, mine)
		else
			take($0, other)
		next
	}
	match($0, /^ +-/) && RLENGTH <= 7 {
		for (i = 1; i <= NF; i++) {
			w = $i
			sub(/,$/, "", w)
			if (w ~ /^--[a-z]/)
				lines[w] = 1
			else if (w !~ /^-/ && w ~ /[a-z]/)
				break # the description begins
		}
	}
	BEGIN { synopsis = 1; current = "" }
	END {
		for (o in mine)
			print o
		for (o in lines)
			if (!(o in other) || (o in mine))
				print o
		print "--help"
	}' <<<"$1" | sort -u
}

_caret()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local verb=${COMP_WORDS[1]} i
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(caret --help 2>/dev/null |
			sed -n 's/^  \([a-z_]*\) .*/\1/p') --help --version" -- "$cur"))
		return
	fi
	# record -- CMD ARGS...: a command, then its own arguments
	for ((i = 2; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] || continue
		if ((i + 1 == COMP_CWORD)); then
			COMPREPLY=($(compgen -c -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
	done
	case $verb:$prev in
	record:--path | record:-p | *:--workspace | *:-w)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	*:--path | verify_paths:-p | verify_paths:--verified_path_names)
		COMPREPLY=($(compgen -W "$(_caret_named_paths)" -- "$cur"))
		return ;;
	*:--arch | *:-o | *:--output | *:--output_path | *:--records | *:--response-records | \
	compare:--base | compare:--new)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	local help subs sub=
	help=$(caret "$verb" --help 2>&1)
	subs=$(_caret_subverbs "$help" "$verb")
	if ((COMP_CWORD == 2)) && [[ -n $subs && $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$subs" -- "$cur"))
		return
	fi
	grep -qxF -- "${COMP_WORDS[2]}" <<<"$subs" && sub=${COMP_WORDS[2]}
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_caret_options "$help" "$verb" "$sub")" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _caret caret
