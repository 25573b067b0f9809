--- :checkhealth distaff -- is the server there, which version, which Python
--- runs it, and can that Python import what the server needs.

local M = {}

-- Neovim 0.9+ has vim.health.start/ok/...; 0.8 has vim.health.report_*;
-- 0.7 has require("health").report_* (wrappers of health#report_*).
local api = vim.health or require("health")
local report = {
  start = api.start or api.report_start,
  ok = api.ok or api.report_ok,
  info = api.info or api.report_info,
  warn = api.warn or api.report_warn,
  error = api.error or api.report_error,
}

--- Runs `argv` (a list); returns its output without the trailing newline, and
--- whether it exited 0.
local function run(argv)
  local output = vim.fn.system(argv)
  return (output:gsub("%s+$", "")), vim.v.shell_error == 0
end

--- The interpreter named by the `#!` line of `file`, or nil.
local function shebang_python(file)
  local ok, lines = pcall(vim.fn.readfile, file, "", 1)
  if not ok or lines[1] == nil then
    return nil
  end
  local interpreter = lines[1]:match("^#!%s*(%S*python[%d.]*)%s*$")
  return interpreter
end

-- The Python code that reports the server's modules, one line each:
-- "ok NAME VERSION" or "missing NAME ERROR".
local PROBE = [[
import importlib, sys
if len(sys.argv) > 1 and sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
for name, dist in (("z3", "z3-solver"), ("pygls", "pygls"), ("lsprotocol", "lsprotocol"),
                   ("tree_sitter", "tree-sitter"), ("tree_sitter_c", "tree-sitter-c"), ("distaff.server.cli", "distaff")):
    try:
        importlib.import_module(name)
    except Exception as e:
        print("missing", name, dist, type(e).__name__ + ": " + str(e).splitlines()[0] if str(e) else type(e).__name__)
        continue
    try:
        from importlib import metadata
        version = metadata.version(dist)
    except Exception:
        version = "(version unknown)"
    print("ok", name, dist, version)
]]

function M.check()
  local distaff = require("distaff")
  local config = distaff.config

  report.start("distaff: Neovim")
  local v = vim.version()
  local version = string.format("%d.%d.%d", v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.7") == 1 then
    report.ok("Neovim " .. version .. (vim.lsp.start and " (vim.lsp.start)" or " (vim.lsp.start_client)"))
  else
    report.error("Neovim " .. version .. " is too old", { "distaff needs Neovim 0.7 or newer" })
  end
  if vim.fn.exists(":DistaffCheck") == 2 then
    report.ok("setup() has run: :DistaffCheck and the other commands are defined")
  else
    report.warn("require('distaff').setup() has not run", { "Call it from your init.lua (see the plugin's README)" })
  end

  report.start("distaff: language server")
  local cmd = distaff.server_cmd(config)
  local exe = vim.fn.exepath(cmd[1])
  if exe == "" then
    report.error("`" .. cmd[1] .. "` is not an executable on PATH", {
      "Install distaff: `pip install distaff` (or `pip install -e .` in a checkout)",
      "or pass `cmd = { '/path/to/distaff', 'lsp' }` to setup()",
      "or pass `python = '/path/to/python'` for a Python that has distaff installed",
    })
    return
  end
  report.ok("server command: " .. table.concat(cmd, " ") .. " (" .. exe .. ")")

  local python
  if config.cmd == nil and config.python ~= nil and config.python ~= "" then
    python = exe
  elseif config.cmd == nil then
    local output, ok = run({ exe, "--version" })
    if ok then
      report.ok("version: " .. output)
    else
      report.error("`" .. cmd[1] .. " --version` failed: " .. output)
    end
    python = shebang_python(exe)
    if python ~= nil then
      report.ok("runs on " .. python .. " (its #! line)")
    else
      -- A wrapper (pyenv shim, pipx link to a shell script): guess.
      python = vim.fn.exepath("python3")
      report.info(exe .. " names no Python in its #! line; probing python3 on PATH (" .. python .. ")")
    end
  else
    report.info("a custom `cmd` is set: the Python below is python3 on PATH, which may not be the server's")
    python = vim.fn.exepath("python3")
  end
  if python == nil or python == "" or vim.fn.executable(python) ~= 1 then
    report.error("no Python interpreter found to probe", { "distaff needs Python 3.11 or newer" })
    return
  end

  report.start("distaff: Python")
  local pyversion, ok = run({ python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])" })
  if not ok then
    report.error(python .. " does not run: " .. pyversion)
    return
  end
  local major, minor = pyversion:match("^(%d+)%.(%d+)")
  if tonumber(major) == 3 and tonumber(minor) >= 11 then
    report.ok("Python " .. pyversion .. " (" .. python .. ")")
  else
    report.error("Python " .. pyversion .. " (" .. python .. ") is too old", { "distaff needs Python 3.11 or newer" })
  end
  local probe = run({ python, "-c", PROBE, config.cmd_cwd or "" })
  for line in vim.gsplit(probe, "\n") do
    local state, module, dist, rest = line:match("^(%S+) (%S+) (%S+) ?(.*)$")
    if state == "ok" then
      report.ok(module .. " " .. rest)
    elseif state == "missing" then
      report.error(module .. " is not importable: " .. rest, { "pip install " .. dist })
    end
  end
  if config.python ~= nil and config.python ~= "" and python == exe then
    -- `python -m distaff.server` has no --version: the probe above imported distaff.server.cli.
    local out, vok = run({ python, "-c", "import sys; sys.path.insert(0, sys.argv[1]) if sys.argv[1] else None; "
      .. "import distaff.server.cli as c; print('distaff', c.version())", config.cmd_cwd or "" })
    if vok then
      report.ok("version: " .. out)
    end
  end

  report.start("distaff: clients")
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  local any = false
  for _, client in ipairs(all) do
    if client.name == "distaff" then
      any = true
      local buffers = vim.lsp.get_buffers_by_client_id and vim.lsp.get_buffers_by_client_id(client.id) or {}
      report.ok(string.format("client %d, root %s, %d buffer(s) attached", client.id,
        tostring(client.config.root_dir), #buffers))
    end
  end
  if not any then
    report.info("no distaff client is running (one starts when a C file is opened)")
  end
end

return M
