-- wrk script for `shipquote gateway`: every request a POST /v1/sessions/{id}/quote for the
-- us-acme rules, each on a session of its own (ids distinct across wrk's threads), the address
-- cycling through a few the rules price differently. Prints the answers by status at the end.
-- Usage: wrk -t2 -c32 -d20s --latency -s bench/wrk/quote.lua http://127.0.0.1:8080
-- (README.md, "Benchmark": the gateway, a worker and the embedded broker as processes.)

local addresses = {
  '{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"}',
  '{"city":"San Francisco","state":"CA","postal_code":"94105","country_code":"US"}',
  '{"city":"New York","state":"NY","postal_code":"10001","country_code":"US"}',
  '{"city":"Austin","state":"TX","postal_code":"78701","country_code":"US"}',
  '{"city":"Anchorage","state":"AK","postal_code":"99501","country_code":"US"}',
}
local cart = '{"items":[{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{"currency":"USD","value":"25.00"},'
  .. '"tax_category":"apparel","weight_grams":300},{"id":"sku-2","label":"Mug","quantity":1,'
  .. '"unit_amount":{"currency":"USD","value":"12.00"},"weight_grams":450}]}'
local headers = { ["Content-Type"] = "application/json" }

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  statuses = {}
end

function request()
  counter = counter + 1
  -- UUID-shaped, as gateways make them: the thread's number, then the request's.
  local session = string.format("c%07d-0000-4000-8000-%012d", thread_number, counter)
  local body = '{"merchant":"acme","payment_method_type":"APPLE_PAY","trigger":"address_changed","currency":"USD",'
    .. '"shipping_address":' .. addresses[(counter % #addresses) + 1] .. ',"cart":' .. cart .. '}'
  return wrk.format("POST", "/v1/sessions/" .. session .. "/quote", headers, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  local line = "answers by status:"
  for status, n in pairs(total) do line = line .. " " .. status .. " " .. n end
  io.write(line .. "\n")
  io.write(string.format("latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
