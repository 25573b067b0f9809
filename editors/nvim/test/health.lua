-- Prints what `:checkhealth distaff` reports, one line each, on stdout; used
-- by tests/editors. The plugin is set up from the environment:
-- DISTAFF_HEALTH_PYTHON (runs `-m distaff.server` from DISTAFF_HEALTH_CWD) or
-- DISTAFF_HEALTH_CMD (a command line, e.g. "/nonexistent/distaff lsp").
local options = { cmd_cwd = os.getenv("DISTAFF_HEALTH_CWD") }
local cmd = os.getenv("DISTAFF_HEALTH_CMD")
if cmd ~= nil and cmd ~= "" then
  options.cmd = vim.split(cmd, " ", { trimempty = true })
else
  options.python = os.getenv("DISTAFF_HEALTH_PYTHON")
end
local ok, err = pcall(function()
  require("distaff").setup(options)
  vim.cmd("checkhealth distaff")
end)
if not ok then
  io.stderr:write("health: " .. tostring(err) .. "\n")
  vim.cmd("cquit 1")
end
io.stdout:write(table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n")
vim.cmd("qa!")
