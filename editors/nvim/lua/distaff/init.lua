--- distaff for Neovim: starts the distaff language server for C buffers and
--- adds commands for its checks.
---
---   require("distaff").setup({ settings = { unwind = 4 } })
---
--- Works on Neovim 0.7 (vim.lsp.start_client + vim.lsp.buf_attach_client) and
--- 0.8+ (vim.lsp.start). One client per project root; the root is the nearest
--- directory above the file holding one of `root_markers`, else the file's own.

local M = {}

local NAME = "distaff"

--- The server's commands (workspace/executeCommand); each takes one argument,
--- {uri} or {uri, line, character} (0-based LSP position).
M.server_commands = {
  check_file = "distaff.checkFile",
  check_from_here = "distaff.checkFromHere",
  pin_thread = "distaff.pinThread",
  clear_context = "distaff.clearContext",
  write_reproducer = "distaff.writeReproducer",
}

local defaults = {
  -- The command that runs the server. nil: { "distaff", "lsp" }, or
  -- { python, "-m", "distaff.server" } when `python` is set.
  cmd = nil,
  -- A Python interpreter with distaff installed (e.g. a virtualenv's).
  python = nil,
  -- Working directory of the server process (nil: Neovim's).
  cmd_cwd = nil,
  filetypes = { "c" },
  root_markers = { ".git", "compile_commands.json", "Makefile", "CMakeLists.txt" },
  -- The distaff.* server settings, without the prefix: checkOn, debounceMs,
  -- mode, unwind, timeout, workers, maxMemoryMB, traceInMessage, races,
  -- spuriousWakeups, findingsTimeout, memoryModel, symArgs, symArgLen.
  settings = {},
  -- Refresh code lenses (assertion status, "Check from here") as you work.
  codelens = true,
  -- Define :Distaff* user commands.
  commands = true,
  on_attach = nil,
  capabilities = nil,
}

M.config = vim.deepcopy(defaults)

-- client.request(...) on 0.7-0.10, client:request(...) from 0.11 (where the
-- dot form is deprecated).
local function call(client, method, ...)
  if vim.fn.has("nvim-0.11") == 1 then
    return client[method](client, ...)
  end
  return client[method](...)
end

M._call = call

local function has_08()
  return vim.lsp.start ~= nil
end

--- The command line that starts the server, from the configuration.
function M.server_cmd(config)
  config = config or M.config
  if config.cmd ~= nil then
    return config.cmd
  end
  if config.python ~= nil and config.python ~= "" then
    return { config.python, "-m", "distaff.server" }
  end
  return { "distaff", "lsp" }
end

local function find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  local here = dir
  while true do
    for _, marker in ipairs(markers) do
      if (vim.uv or vim.loop).fs_stat(here .. "/" .. marker) ~= nil then
        return here
      end
    end
    local parent = vim.fn.fnamemodify(here, ":h")
    if parent == here then
      return dir
    end
    here = parent
  end
end

-- A JSON object even when empty (an empty Lua table would be sent as []).
local function settings_object(settings)
  if next(settings) == nil then
    return vim.empty_dict()
  end
  return settings
end

--- Progress of the server's checks, for statuslines (see M.status()).
local progress = { checks = {}, last = "" }

local function on_progress(err, result, ctx, config)
  if result ~= nil and type(result.value) == "table" then
    local value, token = result.value, tostring(result.token)
    if value.kind == "begin" then
      progress.checks[token] = { title = value.title or "checking", message = value.message or "", percentage = value.percentage }
    elseif value.kind == "report" and progress.checks[token] ~= nil then
      local check = progress.checks[token]
      check.message = value.message or check.message
      check.percentage = value.percentage or check.percentage
    elseif value.kind == "end" then
      progress.checks[token] = nil
      if value.message ~= nil and value.message ~= "" then
        progress.last = value.message
      end
    end
    vim.cmd("silent doautocmd <nomodeline> User DistaffProgress")
  end
  local default = vim.lsp.handlers["$/progress"]
  if default ~= nil then
    return default(err, result, ctx, config)
  end
end

--- A short text for a statusline: "distaff 40%: 2/5 assertions" while a check
--- runs, the last check's summary otherwise ("" before any).
function M.status()
  for _, check in pairs(progress.checks) do
    local percent = check.percentage and string.format(" %d%%", math.floor(check.percentage)) or ""
    local message = check.message ~= "" and (": " .. check.message) or ""
    return "distaff" .. percent .. message
  end
  return progress.last ~= "" and ("distaff: " .. progress.last) or ""
end

local function client_config(root_dir)
  local config = M.config
  local settings = settings_object(config.settings)
  return {
    name = NAME,
    cmd = M.server_cmd(config),
    cmd_cwd = config.cmd_cwd,
    root_dir = root_dir,
    workspace_folders = { { uri = vim.uri_from_fname(root_dir), name = root_dir } },
    init_options = settings,
    settings = { distaff = settings },
    capabilities = config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    handlers = {
      ["$/progress"] = on_progress,
      ["workspace/codeLens/refresh"] = function()
        if config.codelens then
          pcall(vim.lsp.codelens.refresh)
        end
        return vim.NIL
      end,
    },
    on_init = function(client)
      -- Neovim 0.7 sends no settings by itself.
      call(client, "notify", "workspace/didChangeConfiguration", { settings = { distaff = settings } })
    end,
    on_attach = function(client, bufnr)
      if config.codelens then
        vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "BufWritePost" }, {
          buffer = bufnr,
          group = vim.api.nvim_create_augroup("distaff_codelens_" .. bufnr, { clear = true }),
          callback = function()
            pcall(vim.lsp.codelens.refresh)
          end,
        })
        pcall(vim.lsp.codelens.refresh)
      end
      if config.on_attach ~= nil then
        config.on_attach(client, bufnr)
      end
    end,
  }
end

local clients_by_root = {} -- 0.7 only: root_dir -> client id
local warned_missing = false -- say once per session that the server is missing

--- Starts (or reuses) the client for `bufnr`'s project and attaches it.
--- Returns the client id, or nil when the server cannot be started.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == "" or vim.bo[bufnr].buftype ~= "" then
    return nil -- no file to check (a scratch or help buffer)
  end
  local root_dir = find_root(path, M.config.root_markers)
  local cmd = M.server_cmd()
  if vim.fn.executable(cmd[1]) ~= 1 then
    if warned_missing then
      return nil
    end
    warned_missing = true
    vim.notify(
      string.format(
        "distaff: cannot start the server: `%s` is not an executable. Install distaff (`pip install distaff`) "
          .. "or pass `cmd` / `python` to require('distaff').setup(). See :checkhealth distaff.",
        cmd[1]
      ),
      vim.log.levels.ERROR
    )
    return nil
  end
  local config = client_config(root_dir)
  if has_08() then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[root_dir]
  if id == nil or vim.lsp.get_client_by_id(id) == nil or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    if id == nil then
      return nil
    end
    clients_by_root[root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- The distaff client attached to `bufnr`, or nil.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, client in ipairs(all) do
    if client.name == NAME and vim.lsp.buf_is_attached(bufnr, client.id) then
      return client
    end
  end
  return nil
end

--- The argument of a server command at the cursor of the current window.
function M.cursor_args(client, with_position)
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local args = { uri = params.textDocument.uri }
  if with_position then
    args.line = params.position.line
    args.character = params.position.character
  end
  return args
end

--- Runs server command `name` (a key of M.server_commands) for the current
--- buffer; `callback(err, result)` is called with the answer.
function M.execute(name, callback)
  local command = M.server_commands[name]
  assert(command ~= nil, "unknown distaff command " .. tostring(name))
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if client == nil then
    vim.notify("distaff: no distaff server is attached to this buffer", vim.log.levels.WARN)
    return false
  end
  local with_position = name == "check_from_here" or name == "pin_thread" or name == "write_reproducer"
  local params = { command = command, arguments = { M.cursor_args(client, with_position) } }
  call(client, "request", "workspace/executeCommand", params, function(err, result)
    if err ~= nil then
      vim.notify("distaff: " .. command .. " failed: " .. tostring(err.message or err), vim.log.levels.ERROR)
    end
    if callback ~= nil then
      callback(err, result)
    end
  end, bufnr)
  return true
end

--- Stops the distaff clients and attaches every C buffer again.
function M.restart()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  local ids = {}
  for _, client in ipairs(all) do
    if client.name == NAME then
      table.insert(ids, client.id)
      vim.lsp.stop_client(client.id)
    end
  end
  clients_by_root = {}
  vim.wait(3000, function()
    for _, id in ipairs(ids) do
      if not vim.lsp.client_is_stopped(id) then
        return false
      end
    end
    return true
  end, 50)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

local function define_commands()
  local function run(name)
    return function()
      M.execute(name)
    end
  end
  local create = vim.api.nvim_create_user_command
  create("DistaffCheck", run("check_file"), { desc = "distaff: check the assertions of this file" })
  create("DistaffCheckFromHere", run("check_from_here"), { desc = "distaff: check from the cursor's program context" })
  create("DistaffPin", run("pin_thread"), { desc = "distaff: pin this thread at the cursor for Check from here" })
  create("DistaffClear", run("clear_context"), { desc = "distaff: clear context results and pins" })
  create("DistaffReproducer", run("write_reproducer"),
    { desc = "distaff: write a native reproducer of the violated assertion at the cursor" })
  create("DistaffRestart", M.restart, { desc = "distaff: restart the language server" })
end

--- Configures the plugin and attaches to C buffers, now and when opened.
function M.setup(opts)
  -- Shallow: a list or table the user gives replaces the default whole.
  M.config = vim.tbl_extend("force", vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup("distaff", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  if M.config.commands then
    define_commands()
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

return M
