# Numbered steps of a long script, sourced by it (scripts/android-apk.sh). `step WHAT`
# prints "== WHAT" on standard error; when standard error is a terminal it also says which
# step of how many this is and the time since the script started:
#
#   == [4/9] building libjunqi.so (release, aarch64-linux-android)   12:07 elapsed
#
# and `steps_done` closes with "== done: 9 steps in 58:41". Piped or redirected, the lines
# are the plain "== WHAT" and nothing else is printed. Set STEPS_TOTAL (the number of
# `step` calls the run will make) before the first step.

STEPS_TOTAL=${STEPS_TOTAL:-0}
STEPS_DONE=0

# m:ss (or h:mm:ss) of a number of seconds.
steps_clock() {
  local s=$1
  if [ "$s" -ge 3600 ]; then
    printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
  else
    printf '%d:%02d' $((s / 60)) $((s % 60))
  fi
}

step() {
  STEPS_DONE=$((STEPS_DONE + 1))
  if [ -t 2 ]; then
    printf '== [%d/%d] %s   %s elapsed\n' "$STEPS_DONE" "$STEPS_TOTAL" "$*" \
      "$(steps_clock "$SECONDS")" >&2
  else
    echo "== $*" >&2
  fi
}

steps_done() {
  if [ -t 2 ]; then
    printf '== done: %d steps in %s\n' "$STEPS_DONE" "$(steps_clock "$SECONDS")" >&2
  fi
}
