# Sourced by the project's shell scripts: LANG_FM (pt or en) and `say PORTUGUESE ENGLISH`,
# the language chosen as futmesa chooses it (host/futmesa/i18n.py): FUTMESA_LANG, then the
# locale (LC_ALL, LC_MESSAGES, LANG: the first one set), else Brazilian Portuguese.
LANG_FM=pt
case "${FUTMESA_LANG:-}" in
  en* | EN*) LANG_FM=en ;;
  pt* | PT*) ;;
  *) for v in "${LC_ALL:-}" "${LC_MESSAGES:-}" "${LANG:-}"; do
       [ -n "$v" ] || continue
       case "$v" in en*) LANG_FM=en ;; esac
       break
     done ;;
esac
say() { if [ "$LANG_FM" = en ]; then printf '%s\n' "$2"; else printf '%s\n' "$1"; fi; }
