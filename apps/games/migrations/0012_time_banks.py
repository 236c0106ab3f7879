"""Time banks replace the per-decision timing presets: each game gets a time control (name, values in
seconds, weekends off) and each seat a bank. Old games keep going: each preset becomes the nearest
named control (live, daily, weekly keep their names; a custom timing becomes the named control whose
old turn time was nearest its own turn time)."""

import math

from django.db import migrations, models

#: The named controls' values at the time of this migration (seconds).
NAMED = {
    "live": {"initial": 900, "increment": 30, "cap": 900, "reaction": 60},
    "daily": {"initial": 3 * 86400, "increment": 86400, "cap": 5 * 86400, "reaction": 4 * 3600},
    "relaxed": {"initial": 5 * 86400, "increment": 2 * 86400, "cap": 10 * 86400, "reaction": 12 * 3600},
    "weekly": {"initial": 7 * 86400, "increment": 3 * 86400, "cap": 14 * 86400, "reaction": 86400},
}
#: The old presets' turn time (seconds), to find a custom timing's nearest control.
OLD_TURN = {"live": 300, "daily": 86400, "weekly": 7 * 86400}


def nearest(preset: str, timing: dict) -> str:
    if preset in NAMED:
        return preset
    turn = int((timing or {}).get("turn") or 86400)
    return min(OLD_TURN, key=lambda name: abs(math.log(max(turn, 1) / OLD_TURN[name])))


def presets_to_controls(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "control", "timing").iterator():
        name = nearest(game.control, game.timing)
        Game.objects.filter(pk=game.pk).update(control=name, control_values=NAMED[name])


class Migration(migrations.Migration):
    dependencies = [("games", "0011_standing_orders")]

    operations = [
        migrations.RenameField("game", "timing_preset", "control"),
        migrations.AlterField(
            model_name="game",
            name="control",
            field=models.CharField(
                default="daily",
                help_text="The time control's name: live, daily, relaxed, weekly, custom.",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="control_values",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The time control in seconds: initial bank, increment, cap, reaction (a plucking window).",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="weekends_off",
            field=models.BooleanField(
                default=False,
                help_text="Banks do not run on Saturdays and Sundays in each player's own time zone.",
            ),
        ),
        migrations.RunPython(presets_to_controls, migrations.RunPython.noop),
        migrations.RemoveField("game", "timing"),
    ]
