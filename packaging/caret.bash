# bash completion for caret (caret-c): verbs, their sub-verbs and options
# as `caret VERB --help` states them (the original's verbs, check_ctf...,
# and their --long_options too), files for traces, directories where a
# folder is asked, and the named paths of an architecture file: that of
# --arch, or verify_paths' FILE.
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

_caret()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local verb=${COMP_WORDS[1]}
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(caret --help 2>/dev/null |
			sed -n 's/^  \([a-z_]*\) .*/\1/p') --help --version" -- "$cur"))
		return
	fi
	case $verb:$prev in
	record:--path | record:-p | *:--workspace | *:-w)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	*:--path | verify_paths:-p | verify_paths:--verified_path_names)
		COMPREPLY=($(compgen -W "$(_caret_named_paths)" -- "$cur"))
		return ;;
	*:--arch | *:-o | *:--output | *:--output_path | *:--records | *:--response-records)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	local help sub
	help=$(caret "$verb" --help 2>&1)
	# a verb with sub-verbs (latency, path): the second word is one
	sub=$(sed -n "s/^usage: caret $verb \([a-z]*\) .*/\1/p; s/^ *caret $verb \([a-z]*\) .*/\1/p" \
		<<<"$help" | sort -u)
	if ((COMP_CWORD == 2)) && [[ -n $sub && $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$sub" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(grep -o -- '--[a-z][a-z_-]*' <<<"$help" | sort -u)" \
			-- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _caret caret
