#!/usr/bin/env bash
# Runs the README's server command verbatim in a clean clone of this checkout (so nothing
# built or configured here helps it), with no DATABASE_URL, and waits until /readyz says
# ready. LISTEN picks a free port; the command itself is the README's.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
run_cmd=$(grep -m1 -E '^    cargo run ' "$repo/README.md" | sed 's/^    //')
echo "README run command: $run_cmd"
work=$(mktemp -d)
pid=
cleanup() {
  # Only the server started here: never `kill 0`, which would signal this whole process group.
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
git clone -q "$repo" "$work/clone"
cd "$work/clone"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export LISTEN="127.0.0.1:$port"
# The clean clone builds with its own target dir: a newcomer has none.
env -u DATABASE_URL -u CARGO_TARGET_DIR bash -c "$run_cmd" >"$work/out.log" 2>"$work/err.log" &
pid=$!
start=$(date +%s)
until curl -fsS "http://$LISTEN/readyz" >"$work/ready.json" 2>/dev/null; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "the README's run command exited before it was ready:" >&2
    tail -50 "$work/err.log" >&2
    exit 1
  fi
  if [ $(( $(date +%s) - start )) -gt 1800 ]; then
    echo "the README's run command was not ready within 30 minutes" >&2
    tail -50 "$work/err.log" >&2
    exit 1
  fi
  sleep 2
done
echo "ready after $(( $(date +%s) - start )) s (build included): $(cat "$work/ready.json")"
grep -q "connect to ws://$LISTEN/ws" "$work/out.log" || { echo "no 'connect to' line on stdout" >&2; cat "$work/out.log" >&2; exit 1; }
test -f catan.db || { echo "no SQLite file catan.db in the working directory" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid" || { echo "the server did not exit cleanly on SIGTERM" >&2; exit 1; }
pid=
echo "README run command: ok"
