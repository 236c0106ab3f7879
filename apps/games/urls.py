from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_new, name="new"),
    path("games/<int:pk>/", views.game_detail, name="detail"),
    path("games/<int:pk>/act/", views.game_act, name="act"),
    path("games/<int:pk>/history/", views.game_history, name="history"),
    path("games/<int:pk>/replay/", views.game_replay, name="replay"),
    path("games/join/<str:token>/", views.game_join, name="join"),
]
