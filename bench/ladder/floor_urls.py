"""The floor rung's URL map: the move endpoint's path only."""

from django.urls import path

from .rungs import floor

urlpatterns = [path("api/v1/games/<int:game_id>/actions/", floor)]
