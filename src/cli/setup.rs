//! `tictactoe completions SHELL` and `tictactoe man`: what a user sets up once
//! after installing, generated from the command-line definition itself (and
//! the man page's keys from the key table).

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::{Generator, Shell};
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

use super::{Cli, ExitStatus};
use tictactoe_game::keys;

/// The arguments of `tictactoe completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// The command line as the program knows it, ready to describe.
fn definition() -> clap::Command {
    let mut command = Cli::command()
        .bin_name("tictactoe")
        .disable_help_subcommand(true);
    command.build();
    command
}

/// Writes the completion script for `shell`.
pub fn write_completions(shell: Shell, out: &mut dyn Write) -> io::Result<ExitStatus> {
    let mut script = Vec::new();
    shell.try_generate(&definition(), &mut script)?;
    if shell == Shell::Fish {
        let text = String::from_utf8(script).map_err(io::Error::other)?;
        script = fish_long_flags_fixed(&text).into_bytes();
    }
    out.write_all(&script)?;
    Ok(ExitStatus::Success)
}

/// The line of clap_complete's fish script that lists the game's flags for
/// fish's `argparse`, which finds the command in what was typed so far.
const FISH_OPTSPECS: &str = "    string join \\n ";

/// Fish's `argparse` reads a one-letter spec (`x=`) as a short flag and
/// `x-level=` as a hidden short `x` with the long flag `level`, so with the
/// game's `--x` and `--x-level` it stopped with "Short flag 'x' already
/// defined" and nothing after `tictactoe` completed. Such long flags get a
/// hidden short letter of their own (`A-x=`), which argparse accepts and the
/// completions never offer.
fn fish_long_flags_fixed(script: &str) -> String {
    let mut fixed = String::with_capacity(script.len() + 64);
    for line in script.split_inclusive('\n') {
        let Some(specs) = line.strip_prefix(FISH_OPTSPECS) else {
            fixed.push_str(line);
            continue;
        };
        let specs: Vec<&str> = specs.split_whitespace().collect();
        let taken: Vec<char> = specs
            .iter()
            .filter(|spec| spec.contains('/'))
            .filter_map(|spec| spec.chars().next())
            .collect();
        let mut spare = ('A'..='Z')
            .chain('a'..='z')
            .filter(|letter| !taken.contains(letter));
        fixed.push_str(FISH_OPTSPECS);
        let specs: Vec<String> = specs
            .iter()
            .map(|&spec| {
                let name = spec.trim_end_matches('=');
                let misread = !spec.contains('/')
                    && (name.chars().count() == 1 || name.chars().nth(1) == Some('-'));
                match misread.then(|| spare.next()).flatten() {
                    Some(letter) => format!("{letter}-{spec}"),
                    None => spec.to_string(),
                }
            })
            .collect();
        fixed.push_str(&specs.join(" "));
        fixed.push('\n');
    }
    fixed
}

/// Writes the manual page, in roff: the game's options and keys, then every
/// command with its own options, so one page covers the whole program.
pub fn write_man_page(out: &mut dyn Write) -> io::Result<ExitStatus> {
    let command = definition();
    let page = Man::new(command.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    keys_section().to_writer(out)?;

    let mut commands = Roff::new();
    commands.control("SH", ["COMMANDS"]);
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let usage = sub.clone().render_usage().to_string();
        let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string();
        commands.control("TP", []);
        commands.text([bold(usage)]);
        if let Some(about) = sub.get_about() {
            commands.text([roman(about.to_string())]);
        }
    }
    commands.to_writer(out)?;

    // Each command's options under a heading of its own.
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let heading = format!("{} options", sub.get_bin_name().unwrap_or(sub.get_name()));
        let sub = sub
            .clone()
            .mut_args(|arg| arg.help_heading(heading.clone()));
        Man::new(sub).render_options_section(out)?;
    }
    page.render_version_section(out)?;
    Ok(ExitStatus::Success)
}

/// Writes the manuals' tables of keys in Markdown, each after its title,
/// as the guide shows them (a test checks that it does).
pub fn write_key_tables(out: &mut dyn Write) -> io::Result<ExitStatus> {
    out.write_all(keys::markdown().as_bytes())?;
    Ok(ExitStatus::Success)
}

/// The KEYS section: every table of the key table's manuals, each under a
/// heading of its own (clap_mangen renders the sections it knows; this one
/// is added between them).
fn keys_section() -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", ["KEYS"]);
    for group in &keys::GROUPS {
        roff.control("SS", [group.title]);
        for entry in group.entries() {
            roff.control("TP", []);
            roff.text([bold(entry.names())]);
            roff.text([roman(entry.doc)]);
        }
    }
    roff
}
