// Starts `memwarden server` (installed with `pip install 'memwarden[server]'`) from the PATH of the
// worktree's shell: Zed runs a language server only when an extension names it.
use zed_extension_api as zed;

struct Memwarden;

impl zed::Extension for Memwarden {
    fn new() -> Self {
        Memwarden
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<zed::Command> {
        let command = worktree
            .which("memwarden")
            .ok_or_else(|| "memwarden is not on PATH: pip install 'memwarden[server]'".to_string())?;
        Ok(zed::Command {
            command,
            args: vec!["server".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Memwarden);
