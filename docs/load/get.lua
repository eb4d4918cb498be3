-- GET requests for compare.sh: wrk -s get.lua URL -- KEYS_FILE PATH [IDS_FILE]
-- Rotates the Authorization header over the keys of KEYS_FILE (one a line) so that no key exhausts its rate
-- limit, and, when PATH holds {id}, rotates {id} over the ids of IDS_FILE.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local keys, ids, path, k, i = {}, {}, "/", 0, 0
function init(args)
  for line in io.lines(args[1]) do keys[#keys + 1] = line end
  path = args[2]
  if args[3] then
    for line in io.lines(args[3]) do ids[#ids + 1] = line end
  end
  k = (tid * 7919) % #keys
  i = (tid * 13) % math.max(#ids, 1)
end

function request()
  k = k % #keys + 1
  local p = path
  if #ids > 0 then
    i = i % #ids + 1
    p = (string.gsub(path, "{id}", ids[i]))
  end
  return wrk.format("GET", p, {["Authorization"] = "Bearer " .. keys[k]})
end
