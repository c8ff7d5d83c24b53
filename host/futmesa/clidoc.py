"""The command reference (docs/commands.md), generated from the click CLI itself.

`python -m futmesa.clidoc > docs/commands.md` rewrites it (in Brazilian Portuguese; ``--lang en``
for English); a test checks the file matches, so the reference cannot drift from the options the
commands really have. Its words come from the catalogs, like the commands' own ``--help``.
"""

from __future__ import annotations

import sys

import click

from futmesa.i18n import N_, _

HEADER = """# {title}

{intro}
"""
INTRO = N_("Generated from the `futmesa` command itself (`python -m futmesa.clidoc > "
         "docs/commands.md`; a test fails when this file and the commands differ). Each command "
         "also answers `--help`.")


def _option_line(param: click.Parameter) -> str:
    if isinstance(param, click.Argument):
        required = " ({})".format(_("required")) if param.required else ""
        return "| `{}` | {}{} |".format(param.human_readable_name, _("argument"), required)
    assert isinstance(param, click.Option)
    names = ", ".join(f"`{o}`" for o in param.opts + param.secondary_opts)
    if not param.is_flag and not param.count:
        names += f" `{param.make_metavar(click.Context(click.Command('x')))}`" \
            if _metavar_ok(param) else ""
    help_text = (param.help or "").replace("|", "\\|").replace("\n", " ")
    extras = []
    if param.required:
        extras.append(_("required"))
    if param.multiple:
        extras.append(_("repeatable"))
    if param.show_default and param.default not in (None, False, ()):
        extras.append(_("default: {default}").format(default=f"`{param.default}`"))
    if isinstance(param.type, click.Choice):
        extras.append(_("one of {choices}").format(
            choices=", ".join(f"`{c}`" for c in param.type.choices)))
    extra = f" ({'; '.join(extras)})" if extras else ""
    return f"| {names} | {help_text}{extra} |"


def _metavar_ok(param: click.Option) -> bool:
    try:
        param.make_metavar(click.Context(click.Command("x")))
    except TypeError:
        return False
    return True


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    """Every command under `group` as ("name" or "group sub", command), groups walked."""
    ctx = click.Context(group, info_name="futmesa")
    found: list[tuple[str, click.Command]] = []
    for name in sorted(group.list_commands(ctx)):
        cmd = group.get_command(ctx, name)
        if cmd is None or cmd.hidden:
            continue
        full = f"{prefix}{name}"
        found.append((full, cmd))
        if isinstance(cmd, click.Group):
            found += _commands(cmd, full + " ")
    return found


def render(group: click.Group, lang: str = "pt_BR") -> str:
    """Markdown: one section per command (and subcommand), its help and a table of options,
    in ``lang`` (the process language is set to it)."""
    from futmesa.cli_words import localize

    localize(group, lang)
    out = [HEADER.format(title=_("Command reference"), intro=_(INTRO))]
    for name, cmd in _commands(group):
        usage = " ".join(cmd.collect_usage_pieces(click.Context(cmd, info_name=name)))
        out.append(f"## `futmesa {name}`\n")
        out.append((cmd.help or "").strip().split("\n\n")[0].replace("\n", " ") + "\n")
        out.append(f"```\nfutmesa {name} {usage}\n```\n")
        rows = [_option_line(p) for p in cmd.params
                if not (isinstance(p, click.Option) and p.name == "help")]
        if rows:
            out.append("| {} | {} |\n|---|---|".format(_("option"), _("what it does")))
            out.append("\n".join(rows) + "\n")
    return "\n".join(out)


def options_of(group: click.Group) -> dict[str, set[str]]:
    """Top-level command name -> every option spelling it (or any of its subcommands)
    accepts, with --help."""
    found: dict[str, set[str]] = {}
    for name, cmd in _commands(group):
        opts = found.setdefault(name.split(" ")[0], {"--help"})
        for p in cmd.params:
            if isinstance(p, click.Option):
                opts.update(p.opts + p.secondary_opts)
    return found


def main() -> None:
    from futmesa.cli import cli
    from futmesa.cli_words import lang_from_argv

    click.echo(render(cli, lang_from_argv(sys.argv[1:]) or "pt_BR"), nl=False)


if __name__ == "__main__":
    main()
