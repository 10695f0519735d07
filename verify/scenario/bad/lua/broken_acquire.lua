-- a user script with a syntax error on line 3
local x = 1
if x == then
  return 1
end
