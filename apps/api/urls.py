"""/api/: the JSON API under v1/, its OpenAPI schema and documentation, and the token pages."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from . import views_account as account
from . import views_games as games
from . import views_leagues as leagues
from . import web
from .views_errors import not_found

app_name = "api"

urlpatterns = [
    path("v1/me/", account.MeApi.as_view(), name="me"),
    path("v1/me/notifications/", account.NotificationPreferencesApi.as_view(), name="notifications"),
    path("v1/tokens/", account.TokenListApi.as_view(), name="token-list"),
    path("v1/tokens/<int:token_id>/", account.TokenRevokeApi.as_view(), name="token-revoke"),
    path("v1/bots/", account.BotAccountListApi.as_view(), name="bot-list"),
    path("v1/bots/<int:bot_id>/tokens/", account.BotTokenCreateApi.as_view(), name="bot-token-create"),
    path("v1/games/", games.GameListApi.as_view(), name="game-list"),
    path("v1/games/join/", games.GameJoinApi.as_view(), name="game-join"),
    path("v1/games/<int:game_id>/", games.GameDetailApi.as_view(), name="game-detail"),
    path("v1/games/<int:game_id>/history/", games.GameHistoryApi.as_view(), name="game-history"),
    path("v1/games/<int:game_id>/legal/", games.GameLegalApi.as_view(), name="game-legal"),
    path("v1/games/<int:game_id>/actions/", games.MoveSubmitApi.as_view(), name="game-act"),
    path("v1/games/<int:game_id>/invite/", games.GameInviteApi.as_view(), name="game-invite"),
    path("v1/games/<int:game_id>/bots/", games.GameBotAddApi.as_view(), name="game-bots"),
    path("v1/leagues/", leagues.LeagueListApi.as_view(), name="league-list"),
    path("v1/leagues/<slug:slug>/", leagues.LeagueDetailApi.as_view(), name="league-detail"),
    path(
        "v1/leagues/<slug:slug>/seasons/<int:season_id>/standings/",
        leagues.SeasonStandingsApi.as_view(),
        name="season-standings",
    ),
    path("v1/leagues/<slug:slug>/join/", leagues.LeagueJoinApi.as_view(), name="league-join"),
    path("v1/leagues/<slug:slug>/withdraw/", leagues.LeagueWithdrawApi.as_view(), name="league-withdraw"),
    re_path(r"^v1/", not_found),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", web.docs, name="docs"),
    path("tokens/", web.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", web.token_revoke, name="token-revoke-page"),
    path("tokens/bots/", web.bot_create, name="bot-create-page"),
    path("tokens/bots/<int:bot_id>/token/", web.bot_token_create, name="bot-token-page"),
]
