-- WonderForge: run `wonderforge lsp` for the YAML files of a pack (docs/editors.md).
-- Put this in your init.lua, or save it and `dofile` it from there; Neovim 0.7 or later.

-- The server's command; name a virtual environment's own if it is not on the PATH,
-- e.g. { vim.fn.expand('~/mods/.venv/bin/wonderforge'), 'lsp' }.
local wonderforge_cmd = { 'wonderforge', 'lsp' }

-- The folder of the pack a file belongs to: the nearest one above it holding a pack.yaml.
local function pack_root(file)
  local uv = vim.uv or vim.loop
  local dir = vim.fn.fnamemodify(file, ':p:h')
  while true do
    local stat = uv.fs_stat(dir .. '/pack.yaml')
    if stat and stat.type == 'file' then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

local started = {} -- Neovim 0.7, without vim.lsp.start: one client per pack folder

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'yaml',
  callback = function(args)
    local root = pack_root(vim.api.nvim_buf_get_name(args.buf))
    if not root then
      return -- a YAML file outside any pack: not ours
    end
    local config = { name = 'wonderforge', cmd = wonderforge_cmd, root_dir = root }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = args.buf }) -- reuses the client of the same pack folder
    else
      if not (started[root] and vim.lsp.get_client_by_id(started[root])) then
        started[root] = vim.lsp.start_client(config)
      end
      vim.lsp.buf_attach_client(args.buf, started[root])
    end
  end,
})
