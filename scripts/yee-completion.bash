# bash completion for yee (installed as share/bash-completion/completions/yee).
# Commands come from `yee --help`, a command's options from `yee CMD --help`, deck keys for
# --set from `yee deck-keys`: the program is the one source, so this file never goes stale.
_yee()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} yee=${COMP_WORDS[0]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$("$yee" --help 2>/dev/null |
            sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p')" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    case $prev in
    --set)
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -S = -W "$("$yee" deck-keys 2>/dev/null | cut -f1 |
            sed 's/\[\]/[0]/g')" -- "$cur"))
        return ;;
    --backend)
        COMPREPLY=($(compgen -W "auto cpu cpu-reference cuda all" -- "$cur"))
        return ;;
    --out|--geometry|--work)
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$yee" "$cmd" --help 2>/dev/null |
            grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
        return
    fi
    case $cmd in
    run|check|sweep|bands|modes) COMPREPLY=($(compgen -f -X '!*.cfg' -- "$cur") $(compgen -d -- "$cur")) ;;
    resonances|export-vtk|farfield) COMPREPLY=($(compgen -f -X '!*.h5' -- "$cur") $(compgen -d -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -F _yee yee
