"""Games get a random public identifier for links and a visibility; invitations become their own rows.

Every existing game gets a fresh ``public_id``. The invitation token of each game still waiting for
players becomes a (multi-use) ``Invitation`` of its creator, so links already sent keep working; the
tokens of started games are dropped (they could only say "this game is not waiting for players").
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from apps.games.models import new_public_id, new_token


def give_every_game_a_public_id(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(public_id=None).only("pk").iterator():
        Game.objects.filter(pk=game.pk).update(public_id=new_public_id())


def keep_the_links_of_open_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Invitation = apps.get_model("games", "Invitation")
    Invitation.objects.bulk_create(
        Invitation(game_id=game_id, token=token, created_by_id=creator_id)
        for game_id, token, creator_id in Game.objects.filter(status="open").values_list(
            "pk", "invite_token", "created_by_id"
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seat_bot_hold_and_bot_test_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_id",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(give_every_game_a_public_id, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.CharField(default=new_public_id, editable=False, max_length=24, unique=True),
        ),
        migrations.AddField(
            model_name="game",
            name="visibility",
            field=models.CharField(
                choices=[
                    ("public", "Public: anyone may watch"),
                    ("unlisted", "Unlisted: anyone with the link may watch"),
                    ("private", "Private: players only"),
                ],
                default="public",
                help_text="Who may watch (selectors.game_may_view); a private league's games follow the league.",
                max_length=10,
            ),
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(default=new_token, max_length=32, unique=True)),
                ("single_use", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "used_at",
                    models.DateTimeField(
                        blank=True, help_text="When a single-use invitation was used.", null=True
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="games.game",
                    ),
                ),
                (
                    "used_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["game", "-created_at", "-pk"]},
        ),
        migrations.RunPython(keep_the_links_of_open_games, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="invite_token"),
    ]
