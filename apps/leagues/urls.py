from django.urls import URLPattern, URLResolver, include, path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views, views_divisions

#: An organiser's pages of one league, below ``<slug>/manage/``.
manage_pages: list[URLPattern | URLResolver] = [
    path("", views.league_manage, name="manage"),
    path("seasons/<id:number>/divisions/", views_divisions.season_divisions, name="divisions"),
    path(
        "seasons/<id:number>/divisions/<str:action>/",
        views_divisions.season_divisions_action,
        name="divisions_action",
    ),
    path("<str:action>/", views.league_manage_action, name="manage_action"),
]

#: The pages of one league, below ``<slug>/``.
league_pages: list[URLPattern | URLResolver] = [
    path("", views.league_detail, name="detail"),
    path("join/<str:token>/", views.league_join, name="join"),
    path("request/", views.league_request, name="request"),
    path("withdraw/", views.league_withdraw, name="withdraw"),
    path("offers/<id:offer_id>/", views.offer_detail, name="offer"),
    path("offers/<id:offer_id>/<str:answer>/", views.offer_answer, name="offer_answer"),
    path("seasons/<id:number>/<str:kind>.csv", views.season_export_csv, name="season_export"),
    path("manage/", include(manage_pages)),
]

app_name = "leagues"
urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", views.league_new, name="new"),
    path("<slug:slug>/", include(league_pages)),
]
