"""Every refusal's message in the reader's language, in one table keyed by its stable code.

A refusal (``RuleError``, ``ServiceError``) carries a stable English ``code`` (the rules files' BB-23
and BH-21, the services' own) and an English ``message`` that describes the request. For a reader of
another language the message is this table's sentence for the code, translated; the code itself never
changes. Messages already written in the reader's language (a mail command's, see ``localized``) are
kept as they are.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from baogame.rules.core import RuleError

#: Code -> the refusal in one sentence, for every code of the rules files, the services and the API.
MESSAGES: dict[str, Promise] = {
    # Both games (BB-23, BH-21)
    "malformed_action": _("The action is not well formed."),
    "invalid_options": _("These game options are not valid."),
    "stale_decision": _("The decision this answers is no longer open."),
    "not_your_turn": _("It is not your turn."),
    "invalid_seat": _("There is no such seat."),
    "game_over": _("The game is over: there is nothing left to play."),
    # Bao Bei (BB-23)
    "window_closed": _("That window has already closed."),
    "not_eligible": _("You may not answer this window."),
    "not_your_decision": _("This decision is not yours."),
    "action_not_allowed": _("This action is not allowed for this decision."),
    "already_responded": _("You have already answered this decision."),
    "commit_not_allowed": _("Only the active player may end the turn with the action."),
    "wrong_count": _("Wrong number of slots, targets or gifts."),
    "invalid_position": _("That position does not exist."),
    "duplicate_target": _("The same position is named twice."),
    "slot_empty": _("That slot holds no card."),
    "no_cards": _("You have no card, so this is impossible."),
    "draw_unavailable": _("No card can be drawn."),
    "shielded": _("Those cards are protected by the Shield."),
    "no_card_to_give": _("You do not have enough cards to give."),
    "gift_missing": _("A target in another display needs a gift."),
    "gift_not_allowed": _("No gift is given for a target in your own display."),
    "gift_slot_empty": _("A gift slot is empty."),
    "gift_is_target": _("A gift slot is also one of your targets."),
    "duplicate_gift": _("The same slot is given twice."),
    "ability_mismatch": _("That is not the ability on offer."),
    "same_player": _("The two cards must lie in two different displays."),
    "already_moved": _("That card has already been moved this turn."),
    "not_opponent": _("Choose an opponent."),
    "invalid_card_index": _("That card was not drawn."),
    "card_reused": _("Each drawn card can be used once."),
    "shoebill_incomplete": _("A required replacement was left out."),
    # Bao Huang (BH-21)
    "unknown_action_type": _("There is no such action."),
    "wrong_phase": _("This action is not accepted now."),
    "already_submitted": _("You have already answered this decision."),
    "invalid_card": _("A card code is not one of the game's codes."),
    "card_not_in_hand": _("You do not hold all of those cards."),
    "empty_play": _("A play needs at least one card."),
    "not_a_combination": _("Play cards of one rank only (jokers go with any)."),
    "wrong_card_count": _("Play as many cards as the play to beat."),
    "does_not_beat": _("That does not beat the cards on the table."),
    "cannot_pass_lead": _("You lead this trick and must play."),
    "not_emperor": _("Only the emperor can do that."),
    "not_alone": _("You can play alone only when you hold the marked black joker."),
    "emperor_cannot_pledge": _("The emperor does not pledge."),
    "pledge_side_mismatch": _("You can only pledge for your own side."),
    "wrong_tribute_count": _("That is not the number of cards you owe."),
    "wrong_tribute_cards": _("Tribute must be your highest cards other than jokers."),
    "emperor_cannot_guess": _("The emperor does not guess the partner."),
    "cannot_guess_self": _("You cannot name your own seat."),
    "partner_already_revealed": _("The partner question is already settled."),
    # Mail commands and replies
    "no_command": _("No command was found in the first line of your reply."),
    "unknown_command": _("That is not a command of this game."),
    "reply_expired": _("This reply address has expired; answer a newer mail."),
    "forged_address": _("This is not a valid reply address."),
    "sender_mismatch": _("The sender is not the player this address belongs to."),
    "replayed": _("This message was already processed."),
    "unknown_order": _("There is no such standing order."),
    "invalid_order": _("Choose an order to give or to withdraw."),
    "no_trick": _("A trick order can be given only while a trick is played."),
    "no_next_deal": _(
        "This is the game's last deal (another is played only if the lead is shared at its end): there is "
        "no next deal to answer ahead for."
    ),
    # Games, seats and people
    "same_person": _("One person cannot hold two seats of a game (bot accounts included)."),
    "invalid_idempotency_key": _("An Idempotency-Key is 1-128 characters, none a control character."),
    "idempotency_key_reused": _("That Idempotency-Key belongs to another request."),
    "idempotency_key_mismatch": _("That Idempotency-Key was used for a different action."),
    "not_found": _("Not found."),
    "not_seated": _("You have no seat in this game."),
    "game_not_open": _("This game is not waiting for players."),
    "game_not_active": _("This game is not in play."),
    "game_not_paused": _("This game is not paused."),
    "no_open_seat": _("There is no open seat."),
    "not_an_open_table": _("This game takes its players by invitation only."),
    "game_cancelled": _("This game was cancelled before it started."),
    "league_game": _("A league's game cannot be cancelled: the league's organisers may abort it."),
    "no_open_decision": _("There is no open decision for that seat."),
    "no_such_seat": _("There is no player seat at that position."),
    "seat_not_with_bot": _("The bot is not playing this seat: there is nothing to give back."),
    "no_such_user": _("There is no user with that username."),
    "already_seated": _("That player already has a seat in this game."),
    "account_closed": _("This account is closed: it cannot take a seat."),
    "invitation_invalid": _("This invitation link is no longer valid."),
    "invalid_length": _("That game length is not valid."),
    "length_conflict": _("These length settings contradict each other."),
    "bad_length": _("That length is not allowed."),
    "too_many_bots": _("You have as many bot accounts as allowed."),
    "too_many_tokens": _("You have as many tokens as allowed."),
    "invalid_name": _("That name is not valid."),
    "invalid_username": _("A username is 3-40 letters, digits or . + - _"),
    "username_taken": _("That username is taken."),
    "display_name_taken": _("Another player already shows that name."),
    "invalid_talk": _("A message is 1 to 500 characters of text."),
    "talk_too_fast": _("You have written a lot in the last minute: wait a moment."),
    "no_such_message": _("This game has no such message."),
    "own_message": _("You cannot report your own message."),
    "wrong_password": _("That is not your password."),
    "bot_account": _("A bot account is closed with its owner's account."),
    "reserved_name": _("Names ending like the server's bots' names, “(bot)”, are kept for them."),
    "invalid_extension": _("An extension must be positive."),
    "already_on_vacation": _("You are already on vacation."),
    "not_on_vacation": _("You are not on vacation."),
    "vacation_budget_exhausted": _("You have no vacation days left this year."),
    "invalid_return_date": _("The planned return is a day already past."),
    # Sittings
    "bad_times": _("These times cannot be proposed."),
    "bad_recurrence": _("That weekly series is not valid."),
    "no_times": _("Propose at least one time."),
    "unknown_proposal": _("There is no such proposed sitting in this game."),
    "unknown_time": _("That time of the proposal is not open."),
    "proposal_closed": _("Every time of that proposal is already decided."),
    "no_open_proposal": _("No proposed sitting waits for an answer in this game."),
    "not_at_table": _("Only the game's players answer a proposed sitting."),
    "sitting_under_way": _("A sitting is already under way."),
    "no_sitting": _("No sitting is under way."),
    "not_everyone_here": _("Every player must have the game page open."),
    "no_one_to_meet": _("Playing now needs at least two people at the table."),
    "table_of_one": _("A sitting needs two people at the table: the other seats are bots."),
    # Leagues
    "forbidden": _("Only the league's organisers can do that."),
    "not_a_member": _("You are not a member of this league."),
    "invalid_invite": _("This invite link is not valid."),
    "invalid_division": _("There is no such division."),
    "invalid_message": _("A message needs a subject and a text on one line each."),
    "invalid_result": _("Give every seat a place from 1 to the number of players."),
    "already_confirmed": _("This result is already confirmed."),
    "no_result": _("This game has no result to confirm."),
    "reopened": _("This result is reopened: adjudicate it."),
    "not_reopened": _("Reopen the result before adjudicating it."),
    "reason_required": _("Say why."),
    "season_finished": _("This season is over."),
    "previous_season_running": _("The previous season has not finished yet."),
    "previous_results_open": _(
        "Some results of the previous season are not confirmed yet: confirm them, or wait until their "
        "confirmation period ends."
    ),
    "no_rounds_left": _("Every round of this season has started."),
    "divisions_confirmed": _("This season's divisions are confirmed."),
    "not_placed": _("That member has no place in this season."),
    "not_pending": _("That request is not pending."),
    "bot_cannot_organise": _("A bot account cannot organise a league."),
    "already_organiser": _("That member organises the league already."),
    "not_organiser": _("You do not organise this league."),
    "last_organiser": _("Make another member an organiser before stepping down."),
    "no_such_offer": _("There is no such seat offer for you."),
    "offer_lapsed": _("The seat is no longer the one offered."),
    "organiser_hold": _("An organiser holds this game."),
    "offer_closed": _("This offer is closed."),
    "own_game": _("You hold a seat in this game, so another organiser must act on it."),
    "owner_at_own_table": _("One person's accounts cannot be kept at different tables."),
    "division_too_small": _("A division has too few members for one table."),
    "period_over": _("The confirmation period of this result is over: it stands."),
    "reliability_too_low": _(
        "Your record of decisions answered on time is below what this league or table asks, or too short "
        "for this table (a new account has none yet)."
    ),
    "too_few_members": _("There are too few active members for a round."),
    "divisions_unconfirmed": _("Confirm the season's divisions before its first round."),
    # The API itself
    "not_authenticated": _("Authentication credentials were not provided."),
    "authentication_failed": _("The credentials are not valid."),
    "permission_denied": _("You do not have permission to do this."),
    "method_not_allowed": _("This method is not allowed here."),
    "not_acceptable": _("No answer in the format asked for."),
    "unsupported_media_type": _("Send JSON."),
    "throttled": _("Too many requests; try again later."),
    "parse_error": _("The request body does not parse."),
    "invalid": _("The input is not valid."),
    "request_too_large": _("The request body is too large."),
}


def speaks_source_language() -> bool:
    """Whether the active language is the one the messages are written in (English)."""
    active = translation.get_language() or settings.LANGUAGE_CODE
    return active.split("-")[0] == "en"


def error_detail(error: RuleError) -> str:
    """``error``'s message for the reader: as written in English; in another language the table's
    sentence for its code (its own message when it was written in that language already, or when the
    code is not in the table)."""
    if speaks_source_language() or getattr(error, "localized", False):
        return error.message
    text = MESSAGES.get(error.code)
    return str(text) if text is not None else error.message


def refusal(error: RuleError) -> str:
    """A page's notice of a refusal: its message for the reader and its stable code."""
    return translation.gettext("Refused: %(message)s (%(code)s)") % {
        "message": error_detail(error),
        "code": error.code,
    }


def code_detail(code: str, english: str) -> str:
    """The message of a refusal known by its ``code`` only, ``english`` in English."""
    return error_detail(RuleError(code, english))
