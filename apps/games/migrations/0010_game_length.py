"""Games keep the name of their match length; existing games get the name their options amount to."""

from typing import Any

from django.db import migrations, models


def _baobei_default(players: int) -> int:
    """§2.3 as it stands when this migration is written (kept here: migrations do not import app code)."""
    return 100 if players == 2 else 80 if players <= 4 else 60


def _name(engine: str, players: int, options: dict[str, Any]) -> str:
    """The length of a game created before lengths existed (no Bao Huang game had a deal limit)."""
    if engine == "baohuang":
        standard = options.get("target_score", 30) == 30 and options.get("deal_limit") is None
        return "standard" if standard else "custom"
    if engine == "baobei":
        default = _baobei_default(players)
        scaled = {default // 2: "short", default: "normal", default * 3 // 2: "long"}
        return scaled.get(options.get("threshold", default), "custom")
    return ""


def name_lengths(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "engine", "players", "options").iterator(chunk_size=2000):
        name = _name(game.engine, game.players, game.options or {})
        if name:
            Game.objects.filter(pk=game.pk).update(length=name)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_game_watch_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="length",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The match length the options amount to: one of the game's named lengths (Bao "
                "Huang one_deal, short, standard; Bao Bei short, normal, long) or custom; empty for a game "
                "without lengths (apps.games.lengths). A stable key for pages, the API and duration "
                "estimates.",
                max_length=16,
            ),
        ),
        migrations.RunPython(name_lengths, migrations.RunPython.noop),
    ]
