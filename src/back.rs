//! The phone's back button. Android's Back key reaches the app as the logical key
//! `BrowserBack` (winit marks it handled, so the system leaves it to the app):
//!
//! - on a menu screen it does what the screen's ◀ 返回 does (the lobby also stops looking for
//!   hosts); on the review it goes back to where the review was opened from;
//! - on the title screen, and in a game, it closes the app, as Back does at an app's root: a
//!   game against the computer is kept and offered on the next start ([`crate::suspend`]), a
//!   LAN game resumes from its journal. Leaving a game for the menu would give it up instead.

use bevy::{input::keyboard::Key, prelude::*};

use crate::screens::{Navigate, Screen, lobby::LobbyAction, review::ReviewState};

/// Where Back leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Back {
    /// To this screen.
    To(Screen),
    /// Out of the app.
    Close,
}

/// Where Back leads from `screen`; `review_from` is where the review was opened from.
pub fn back_from(screen: Screen, review_from: Screen) -> Back {
    match screen {
        Screen::Title | Screen::Game => Back::Close,
        // Never into a game: entering one starts it (or its clock) anew.
        Screen::Review if !matches!(review_from, Screen::Review | Screen::Game) => {
            Back::To(review_from)
        }
        Screen::Setup
        | Screen::GameOver
        | Screen::Lobby
        | Screen::Replay
        | Screen::Review
        | Screen::Profile
        | Screen::Settings
        | Screen::Rules => Back::To(Screen::Title),
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, on_back);
}

fn on_back(
    keys: Option<Res<ButtonInput<Key>>>,
    screen: Res<State<Screen>>,
    review: Option<Res<ReviewState>>,
    mut nav: MessageWriter<Navigate>,
    mut lobby: MessageWriter<LobbyAction>,
    mut exit: MessageWriter<AppExit>,
) {
    if !keys.is_some_and(|k| k.just_pressed(Key::BrowserBack)) {
        return;
    }
    let screen = *screen.get();
    let review_from = review.map_or(Screen::Title, |r| r.back);
    match back_from(screen, review_from) {
        Back::Close => {
            exit.write(AppExit::Success);
        }
        Back::To(to) => {
            if screen == Screen::Lobby {
                lobby.write(LobbyAction::Cancel);
            }
            nav.write(Navigate(to));
        }
    }
}
