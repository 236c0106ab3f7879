from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"
