#!/bin/sh
# wrk against `shipquote gateway` + `shipquote run` + `shipquote broker`, three processes on
# 127.0.0.1 (README.md, "Benchmark"). Usage: bench/wrk/run.sh [SHIPQUOTE] [wrk flags...]
# Default wrk flags: -t2 -c32 -d20s --latency; PORT (default 8080) is the gateway's on 127.0.0.1.
# Needs Debian's wrk (apt-get install wrk) and curl.
set -eu
port=${PORT:-8080}
B=${1:-/tmp/build-bench/release/shipquote}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -t2 -c32 -d20s --latency
dir=$(mktemp -d)
cleanup() { kill $gateway $worker $broker 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT INT TERM

"$B" broker --partitions 8 > "$dir/broker.out" 2> "$dir/broker.err" & broker=$!
while [ ! -s "$dir/broker.out" ]; do sleep 0.1; done
bootstrap=$(head -1 "$dir/broker.out")
# The embedded broker holds an empty fetch for the whole fetch.wait.max.ms (README, "Client defaults").
"$B" run --bootstrap-servers "$bootstrap" --rules examples/rules/us-acme.yaml -X fetch.wait.max.ms=1 \
  --log-level warning 2> "$dir/worker.err" & worker=$!
"$B" gateway --bootstrap-servers "$bootstrap" --listen 127.0.0.1:$port -X fetch.wait.max.ms=1 \
  --log-level warning 2> "$dir/gateway.err" & gateway=$!
# Ready when a call is answered 200 (the worker's group join takes a few seconds).
body='{"merchant":"acme","payment_method_type":"APPLE_PAY","trigger":"address_changed","currency":"USD","shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"},"cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":1,"unit_amount":{"currency":"USD","value":"25.00"}}]}}'
for i in $(seq 1 600); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H 'Request-Timeout: 2' \
    -d "$body" "http://127.0.0.1:$port/v1/sessions/warm-up-$i/quote" || true)
  [ "$code" = 200 ] && break
  sleep 0.1
done
[ "$code" = 200 ] || { echo "the gateway did not answer 200 (last: $code); see $dir" >&2; exit 1; }
for i in $(seq 1 50); do
  curl -s -o /dev/null -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/v1/sessions/warm-up-b$i/quote"
done
wrk "$@" -s bench/wrk/quote.lua http://127.0.0.1:$port
