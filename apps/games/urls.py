from django.urls import path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import estimate_views, record_views, views, views_orders, views_seat

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.games_watch, name="watch"),
    path("games/new/", views.game_new, name="new"),
    path("games/estimate/", estimate_views.estimate, name="estimate"),
    path("games/<str:public_id>/take-back/", views_seat.seat_take_back, name="take_back"),
    path("games/join/<str:token>/", views.game_join, name="join"),
    # Old links by number redirect to the game's public identifier (for viewers who may see it).
    path("games/<id:pk>/", views.game_by_number, name="by-number"),
    path("games/<id:pk>/history/", views.game_by_number, {"page": "history"}, name="history-by-number"),
    path("games/<str:public_id>/", views.game_detail, name="detail"),
    path("games/<str:public_id>/act/", views.game_act, name="act"),
    path("games/<str:public_id>/history/", views.game_history, name="history"),
    path("games/<str:public_id>/invitations/", views.game_invitations, name="invitations"),
    path("games/<str:public_id>/replay/", views.game_replay, name="replay"),
    path("games/<str:public_id>/seat/", views_seat.seat_settings, name="seat-settings"),
    path("games/<str:public_id>/orders/", views_orders.orders_update, name="orders"),
    path("games/<str:public_id>/bots/", views_seat.seat_add_bot, name="add-bot"),
    path("vacation/", views_seat.vacation, name="vacation"),
    path("games/<str:public_id>/record.json", record_views.game_record_download, name="record"),
]
