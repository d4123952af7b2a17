# bash completion for manycoll (installed as
# share/bash-completion/completions/manycoll). Commands and options come
# from the command itself (`manycoll help`, `manycoll CMD --help`), so they
# stay true to the installed version; values of --coll, --platform and
# --profile are completed from what it knows.
_manycoll()
{
    local cur prev cmd words
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("$1" help 2>/dev/null | awk '/^commands:/{l=1;next} l&&/^  /{print $1}')
        COMPREPLY=($(compgen -W "$words help --version --help" -- "$cur"))
        return
    fi
    case $prev in
        --coll)
            words="barrier bcast reduce allreduce allgather alltoall reduce_scatter_block gather scatter"
            [ "$cmd" = model ] && words="$words bcast-small reduce-small"
            COMPREPLY=($(compgen -W "$words" -- "$cur")); return ;;
        --platform)
            words="scc48 scc48-cached scc48-kohler tilepro64 tilepro64-udn xeonphi60 vscc240 mesh8x8 mesh16x16 mesh32x32 mesh256x256"
            COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")); return ;;
        --profile)
            COMPREPLY=($(compgen -W "sandybridge2s xeonphi60" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")); return ;;
        --dtype)
            COMPREPLY=($(compgen -W "int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64" -- "$cur")); return ;;
        --op)
            COMPREPLY=($(compgen -W "sum prod min max band bor bxor land lor" -- "$cur")); return ;;
        --cache) COMPREPLY=($(compgen -W "warm cold" -- "$cur")); return ;;
        --contention) COMPREPLY=($(compgen -W "all none mpb link mc mpb,link mpb,mc link,mc" -- "$cur")); return ;;
        -o|--trace) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if [ "$cmd" = run ]; then
        # after the program, its own arguments: files
        local i
        for ((i = 2; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
                -n|--np|--timeout) i=$((i + 1)) ;;
                -*) ;;
                *) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            esac
        done
        [[ $cur != -* ]] && { COMPREPLY=($(compgen -c -- "$cur")); return; }
    fi
    if [ "$cmd" = replay ] && [[ $cur != -* ]]; then
        # the archive: its directory or its traces.otf2
        COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.otf2' -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        words=$("$1" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$words -h" -- "$cur"))
    elif [ "$cmd" = model ] && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "optimize predict profile pingpong --platform" -- "$cur"))
    fi
}
complete -F _manycoll manycoll
