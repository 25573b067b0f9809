-- End-to-end test of the Neovim plugin against the real distaff server.
--
--   nvim --headless -u NONE --cmd "set rtp+=editors/nvim" -c "luafile editors/nvim/test/e2e.lua"
--
-- Opens a copy of lost_update.c, lets the plugin start distaff, and checks
-- what a user would see: the failing assertion's error and the holding one's
-- information at the lines their comments mark, a hover on the failing one,
-- the "Check from here" code action publishing context results,
-- :DistaffClear removing them, and :DistaffCheckFromHere at the cursor
-- publishing them again. Exits 0 when all of that happened, else 1
-- with a message on stderr.
--
-- Environment: DISTAFF_E2E_PYTHON (the Python that runs `-m distaff.server` from this
-- checkout; default python3) or DISTAFF_E2E_CMD (a command line, e.g.
-- "distaff lsp"); DISTAFF_E2E_TIMEOUT (seconds to wait for each verdict,
-- default 240).

local function log(message)
  io.stderr:write("e2e: " .. message .. "\n")
end

local function fail(message)
  io.stderr:write("e2e: FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
  os.exit(1)
end

local script = debug.getinfo(1, "S").source:sub(2)
local repo = vim.fn.fnamemodify(script, ":p:h:h:h:h")
local fixture = repo .. "/editors/nvim/test/lost_update.c"
local timeout_ms = tonumber(os.getenv("DISTAFF_E2E_TIMEOUT") or "240") * 1000

-- A watchdog: vim.wait runs timers, so this fires even inside a wait.
vim.defer_fn(function()
  fail("the whole test took longer than " .. (timeout_ms * 3 / 1000) .. " s")
end, timeout_ms * 3)

local function diagnostics_at(bufnr, line, source)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.lnum == line and (source == nil or d.source == source) then
      table.insert(found, d)
    end
  end
  return found
end

local function describe(bufnr)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(lines, string.format("  line %d severity %d [%s] %s", d.lnum + 1, d.severity, tostring(d.source),
      (d.message:gsub("\n", " | "))))
  end
  return #lines == 0 and "  (no diagnostics)" or table.concat(lines, "\n")
end

local function wait_for(what, bufnr, predicate)
  local start = vim.loop.hrtime()
  if not vim.wait(timeout_ms, predicate, 100) then
    fail(string.format("timed out after %d s waiting for %s; diagnostics now:\n%s", timeout_ms / 1000, what,
      describe(bufnr)))
  end
  log(string.format("%s after %.1f s", what, (vim.loop.hrtime() - start) / 1e9))
end

local function marker_line(bufnr, marker)
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if text:find("distaff-test: " .. marker, 1, true) then
      return i - 1, text
    end
  end
  fail("no line marked '" .. marker .. "' in " .. fixture)
end

local function request(bufnr, method, params)
  local answers, err = vim.lsp.buf_request_sync(bufnr, method, params, 30000)
  if answers == nil then
    fail(method .. " got no answer: " .. tostring(err))
  end
  for _, answer in pairs(answers) do
    if answer.err ~= nil then
      fail(method .. " failed: " .. vim.inspect(answer.err))
    end
    return answer.result
  end
  fail(method .. ": no client answered")
end

local function hover_text(result)
  if result == nil then
    return ""
  end
  local contents = result.contents
  if type(contents) == "string" then
    return contents
  end
  if contents.value ~= nil then
    return contents.value
  end
  local parts = {}
  for _, part in ipairs(contents) do
    table.insert(parts, type(part) == "string" and part or part.value)
  end
  return table.concat(parts, "\n")
end

local function main()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, "p")
  local file = dir .. "/lost_update.c"
  vim.fn.writefile(vim.fn.readfile(fixture), file)

  local options = { cmd_cwd = repo, settings = { unwind = 4, timeout = timeout_ms / 1000 } }
  local cmd = os.getenv("DISTAFF_E2E_CMD")
  if cmd ~= nil and cmd ~= "" then
    options.cmd = vim.split(cmd, " ", { trimempty = true })
  else
    options.python = os.getenv("DISTAFF_E2E_PYTHON") or "python3"
  end
  local distaff = require("distaff")
  distaff.setup(options)
  log("server command: " .. table.concat(distaff.server_cmd(), " "))

  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype ~= "c" then
    fail("the fixture's filetype is '" .. vim.bo[bufnr].filetype .. "', not c")
  end
  wait_for("the plugin to attach the distaff client", bufnr, function()
    local client = distaff.client(bufnr)
    return client ~= nil and client.initialized ~= false
  end)

  local fails_line = marker_line(bufnr, "fails")
  local holds_line = marker_line(bufnr, "holds")
  local here_line, here_text = marker_line(bufnr, "check from here")
  local E, I, W = vim.diagnostic.severity.ERROR, vim.diagnostic.severity.INFO, vim.diagnostic.severity.WARN

  -- A verdict, once published for this (unchanging) text, is final: wait
  -- for one on each assertion, then judge it, so a wrong one fails at once.
  wait_for("a verdict on the failing assertion (line " .. (fails_line + 1) .. ")", bufnr, function()
    return #diagnostics_at(bufnr, fails_line, "distaff") > 0
  end)
  local error = diagnostics_at(bufnr, fails_line, "distaff")[1]
  if error.severity ~= E then
    fail("the failing assertion got severity " .. error.severity .. ", not error: " .. error.message
      .. "\ndiagnostics now:\n" .. describe(bufnr))
  end
  wait_for("a verdict on the holding assertion (line " .. (holds_line + 1) .. ")", bufnr, function()
    return #diagnostics_at(bufnr, holds_line, "distaff") > 0
  end)
  for _, d in ipairs(diagnostics_at(bufnr, holds_line, "distaff")) do
    if d.severity ~= I and d.severity ~= vim.diagnostic.severity.HINT then
      fail("the assertion that holds got severity " .. d.severity .. ": " .. d.message)
    end
    if not d.message:find("holds", 1, true) then
      fail("the holding assertion's message does not say it holds: " .. d.message)
    end
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == E and d.lnum ~= fails_line then
      fail("an unexpected error at line " .. (d.lnum + 1) .. ": " .. d.message)
    end
  end
  log("error message: " .. error.message:gsub("\n", " | "))
  -- Neovim's float shows the message only, so the schedule is folded into it.
  if not error.message:find("increment", 1, true) then
    fail("the error's message does not show the schedule through `increment`: " .. error.message)
  end

  -- Hover on the failing assertion: its status.
  local fails_text = vim.api.nvim_buf_get_lines(bufnr, fails_line, fails_line + 1, false)[1]
  local client = distaff.client(bufnr)
  local position = { line = fails_line, character = fails_text:find("assert", 1, true) - 1 }
  local hover = hover_text(request(bufnr, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = position,
  }))
  log("hover: " .. hover:gsub("\n", " | "))
  if not (hover:find("fail", 1, true) or hover:find("violat", 1, true)) then
    fail("the hover on the failing assertion does not say it fails: " .. hover)
  end
  if not hover:find("%d+ runs") then
    fail("the hover on the failing assertion has no statistics: " .. hover)
  end

  -- The "Check from here" code action, at the marked statement of main.
  local here = { line = here_line, character = here_text:find("%S") - 1 }
  local actions = request(bufnr, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = here, ["end"] = here },
    context = { diagnostics = {} },
  }) or {}
  local titles, chosen = {}, nil
  for _, action in ipairs(actions) do
    table.insert(titles, action.title)
    if action.title == "Check from here" then
      chosen = action
    end
  end
  log("code actions at line " .. (here_line + 1) .. ": " .. table.concat(titles, ", "))
  if chosen == nil then
    fail("no 'Check from here' code action at line " .. (here_line + 1))
  end
  if not vim.tbl_contains(titles, "Pin this thread here") then
    fail("no 'Pin this thread here' code action at line " .. (here_line + 1))
  end
  local command = type(chosen.command) == "table" and chosen.command or chosen
  local answered, answer = false, nil
  distaff._call(client, "request", "workspace/executeCommand", { command = command.command, arguments = command.arguments },
    function(err, result)
      answered, answer = true, { err = err, result = result }
    end, bufnr)
  wait_for("the answer to Check from here", bufnr, function()
    return answered
  end)
  if answer.err ~= nil then
    fail("Check from here failed: " .. vim.inspect(answer.err))
  end
  log("Check from here answered: " .. vim.inspect(answer.result):gsub("\n%s*", " "))
  if type(answer.result) == "table" and answer.result.error ~= nil then
    fail("Check from here was refused: " .. answer.result.error)
  end
  wait_for("context results (source 'distaff (context)')", bufnr, function()
    return #diagnostics_at(bufnr, fails_line, "distaff (context)") > 0
  end)
  local context = diagnostics_at(bufnr, fails_line, "distaff (context)")[1]
  log("context result: " .. context.message:gsub("\n", " | "))
  if context.severity ~= E and context.severity ~= W then
    fail("from the join, counter is unknown, yet the context result says: " .. context.message)
  end
  -- Whole-program results stay as they were.
  if #diagnostics_at(bufnr, fails_line, "distaff") == 0 then
    fail("the whole-program result disappeared when the context result came")
  end

  -- :DistaffClear drops context results (and only those).
  vim.cmd("DistaffClear")
  wait_for(":DistaffClear to remove the context results", bufnr, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == "distaff (context)" then
        return false
      end
    end
    return true
  end)
  if #diagnostics_at(bufnr, fails_line, "distaff") == 0 then
    fail(":DistaffClear also removed the whole-program result")
  end

  -- The same check through the user command, at the cursor.
  vim.api.nvim_win_set_cursor(0, { here_line + 1, here.character })
  vim.cmd("DistaffCheckFromHere")
  wait_for(":DistaffCheckFromHere to publish context results", bufnr, function()
    return #diagnostics_at(bufnr, fails_line, "distaff (context)") > 0
  end)
  local again = diagnostics_at(bufnr, fails_line, "distaff (context)")[1]
  if again.message ~= context.message then
    fail("the command and the code action disagree: " .. again.message .. " / " .. context.message)
  end
  log("passed")
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail("error in the test: " .. tostring(err))
end
vim.cmd("qa!")
