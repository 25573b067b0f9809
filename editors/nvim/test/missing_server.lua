-- With a server command that does not exist, opening C buffers tells the
-- user once, with the fix, and starts nothing. Prints the notifications and
-- the number of distaff clients on stdout; used by tests/editors.
local said = {}
vim.notify = function(message, level)
  table.insert(said, string.format("[%s] %s", tostring(level), message))
end
require("distaff").setup({ cmd = { "/nonexistent/distaff", "lsp" } })
vim.cmd("filetype on")
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, "p")
vim.cmd("edit " .. dir .. "/one.c")
vim.cmd("new " .. dir .. "/two.c")
vim.cmd("enew")
vim.bo.filetype = "c" -- a scratch buffer: not attached at all
local clients = 0
for _, client in ipairs(vim.lsp.get_active_clients()) do
  if client.name == "distaff" then
    clients = clients + 1
  end
end
io.stdout:write(string.format("notifications: %d\nclients: %d\n%s\n", #said, clients, table.concat(said, "\n")))
vim.cmd("qa!")
