"""factory_boy factories for database tests."""

from __future__ import annotations

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pw-for-tests-123")

    @factory.post_generation
    def verified(self, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            EmailAddress.objects.get_or_create(
                user=self, email=self.email, defaults={"verified": True, "primary": True}
            )
