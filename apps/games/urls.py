from django.urls import include, path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import estimate_views, record_views, views, views_orders, views_players, views_seat, views_talk

#: The pages of one game, below ``games/<public_id>/``.
game_pages = [
    path("", views.game_detail, name="detail"),
    path("act/", views.game_act, name="act"),
    path("history/", views.game_history, name="history"),
    path("invitations/", views.game_invitations, name="invitations"),
    path("replay/", views.game_replay, name="replay"),
    path("seat/", views_seat.seat_settings, name="seat-settings"),
    path("take-back/", views_seat.seat_take_back, name="take_back"),
    path("hand-over/", views_seat.seat_hand_over, name="hand_over"),
    path("orders/", views_orders.orders_update, name="orders"),
    path("talk/", views_talk.game_talk, name="talk"),
    path("talk/<id:message_id>/report/", views_talk.game_talk_report, name="talk-report"),
    path("bots/", views_seat.seat_add_bot, name="add-bot"),
    path("take-seat/", views.game_take_seat, name="take-seat"),
    path("close-table/", views.game_close_table, name="close-table"),
    path("cancel/", views.game_cancel, name="cancel"),
    path("record.json", record_views.game_record_download, name="record"),
]

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.games_watch, name="watch"),
    path("games/new/", views.game_new, name="new"),
    path("games/estimate/", estimate_views.estimate, name="estimate"),
    path("games/join/<str:token>/", views.game_join, name="join"),
    # Old links by number redirect to the game's public identifier (for viewers who may see it).
    path("games/<id:pk>/", views.game_by_number, name="by-number"),
    path("games/<id:pk>/history/", views.game_by_number, {"page": "history"}, name="history-by-number"),
    # after the fixed names above, which a public identifier would match as well
    path("games/<str:public_id>/", include(game_pages)),
    path("vacation/", views_seat.vacation, name="vacation"),
    path("players/<str:username>/", views_players.player_detail, name="player"),
]
