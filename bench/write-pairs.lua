-- wrk script: each request is a pair sent together on one connection (HTTP
-- pipelining): POST /plants with a fresh id, then DELETE /plants/<that id>.
-- The server answers them in order, so every DELETE finds its plant (204).
-- Each plant has a name of its own (its id in it), so that no rule about names
-- turns the run into a storm of refusals.
-- wrk counts both answers as requests. Arguments (after `--`): first id, bearer token.
local next_id = 1
local token = "psm_acme_write"

function init(args)
  next_id = tonumber(args[1]) or next_id
  token = args[2] or token
end

function request()
  next_id = next_id + 1
  local auth = "Bearer " .. token
  return wrk.format("POST", "/plants", { ["Authorization"] = auth, ["Content-Type"] = "application/json" },
    '{"id":' .. next_id .. ',"name":"Bench fern ' .. next_id .. '","tag":"fern"}')
    .. wrk.format("DELETE", "/plants/" .. next_id, { ["Authorization"] = auth })
end
