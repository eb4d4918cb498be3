-- Rotates the Authorization header over many read keys so that no key exhausts its 600 reads per minute.
local keys = {}
for line in io.lines("read.keys") do keys[#keys + 1] = line end
local n = 0
function setup(thread) end
function init(args) n = math.random(#keys) end
function request()
  n = n % #keys + 1
  return wrk.format("GET", "/api/v1/tracker?limit=25&view=compact", {["Authorization"] = "Bearer " .. keys[n]})
end
