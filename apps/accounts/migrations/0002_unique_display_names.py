"""Display names become unique without regard to case and never another user's username.

Existing clashes are resolved deterministically before the unique index is built: a display name equal
(ignoring case) to another user's username is cleared, and of the profiles sharing one display name the
one of the oldest account (lowest user id) keeps it while the others are cleared. A cleared profile
shows its username, which is unique.
"""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def resolve_clashes(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    usernames = {}
    for pk, username in User.objects.values_list("pk", "username"):
        usernames.setdefault(username.lower(), set()).add(pk)
    kept = set()
    for profile in Profile.objects.exclude(display_name="").order_by("user_id"):
        key = profile.display_name.strip().lower()
        owners = usernames.get(key, set())
        if key in kept or (owners and owners != {profile.user_id}) or not key:
            profile.display_name = ""
            profile.save(update_fields=["display_name"])
            continue
        kept.add(key)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(resolve_clashes, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='profile',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('display_name'), condition=models.Q(('display_name', ''), _negated=True), name='profile_unique_display_name_ci'),
        ),
    ]
