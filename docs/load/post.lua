-- POST requests for compare.sh: wrk -s post.lua URL -- KEYS_FILE PATH BODY_FILE PREFIX STATUS
-- Rotates the Authorization header over the keys of KEYS_FILE, and sends BODY_FILE with every {n} replaced by
-- a string no other request uses (PREFIX, the thread and a count), so that every request creates a new record.
-- Counts the answers with status STATUS and prints "expected N" at the end.
local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
  thread:set("tid", #threads)
end

local keys, path, body, prefix, want, k, n = {}, "/", "", "x", 201, 0, 0
function init(args)
  for line in io.lines(args[1]) do keys[#keys + 1] = line end
  path = args[2]
  local f = assert(io.open(args[3]))
  body = f:read("*a")
  f:close()
  prefix = args[4]
  want = tonumber(args[5])
  k = (tid * 7919) % #keys
  expected = 0
end

function request()
  k = k % #keys + 1
  n = n + 1
  local b = (string.gsub(body, "{n}", prefix .. "-" .. tid .. "-" .. n))
  return wrk.format("POST", path, {["Authorization"] = "Bearer " .. keys[k], ["Content-Type"] = "application/json"}, b)
end

function response(status, headers, body)
  if status == want then expected = expected + 1 end
end

function done(summary, latency, requests)
  local c = 0
  for _, t in ipairs(threads) do c = c + t:get("expected") end
  io.write(string.format("expected %d\n", c))
end
