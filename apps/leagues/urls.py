from django.urls import path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views, views_divisions

app_name = "leagues"
urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", views.league_new, name="new"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/join/<str:token>/", views.league_join, name="join"),
    path("<slug:slug>/request/", views.league_request, name="request"),
    path("<slug:slug>/withdraw/", views.league_withdraw, name="withdraw"),
    path("<slug:slug>/offers/<id:offer_id>/", views.offer_detail, name="offer"),
    path("<slug:slug>/offers/<id:offer_id>/<str:answer>/", views.offer_answer, name="offer_answer"),
    path("<slug:slug>/seasons/<id:number>/<str:kind>.csv", views.season_export_csv, name="season_export"),
    path("<slug:slug>/manage/", views.league_manage, name="manage"),
    path(
        "<slug:slug>/manage/seasons/<id:number>/divisions/",
        views_divisions.season_divisions,
        name="divisions",
    ),
    path(
        "<slug:slug>/manage/seasons/<id:number>/divisions/<str:action>/",
        views_divisions.season_divisions_action,
        name="divisions_action",
    ),
    path("<slug:slug>/manage/<str:action>/", views.league_manage_action, name="manage_action"),
]
