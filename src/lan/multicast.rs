//! Android delivers multicast packets (mDNS: finding and announcing LAN games) only to an app
//! holding a Wi-Fi `MulticastLock`; the manifest's CHANGE_WIFI_MULTICAST_STATE permission alone
//! is not enough. The lock is held while the lobby is open or a LAN session runs, and let go
//! when neither is, or when the app goes to the background (it costs battery). Elsewhere
//! [`MulticastLock::held`] follows the same rule and nothing else happens.

use bevy::{prelude::*, window::AppLifecycle};

use super::plugin::{LanBrowsing, LanLink};

/// Whether the app holds the multicast lock now.
#[derive(Resource, Default)]
pub struct MulticastLock {
    /// Held (on Android: acquired from the `WifiManager`).
    pub held: bool,
    /// The app is in the background.
    suspended: bool,
    #[cfg(target_os = "android")]
    lock: Option<jni::objects::GlobalRef>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MulticastLock>()
        .add_message::<AppLifecycle>()
        .add_systems(Last, follow);
}

fn follow(
    mut lock: ResMut<MulticastLock>,
    browsing: Option<Res<LanBrowsing>>,
    link: Option<Res<LanLink>>,
    mut life: MessageReader<AppLifecycle>,
) {
    for l in life.read() {
        match l {
            AppLifecycle::WillSuspend | AppLifecycle::Suspended => lock.suspended = true,
            AppLifecycle::WillResume | AppLifecycle::Running => lock.suspended = false,
            AppLifecycle::Idle => {}
        }
    }
    let want = !lock.suspended && (browsing.is_some() || link.is_some());
    if want != lock.held {
        lock.set(want);
    }
}

impl MulticastLock {
    #[cfg(not(target_os = "android"))]
    fn set(&mut self, on: bool) {
        self.held = on;
    }

    #[cfg(target_os = "android")]
    fn set(&mut self, on: bool) {
        let result = if on {
            android::acquire().map(|l| self.lock = Some(l))
        } else {
            self.lock.take().map_or(Ok(()), |l| android::release(&l))
        };
        match result {
            Ok(()) => self.held = on,
            // Without it the lobby may find no hosts; the game goes on (a host can still be
            // joined by address).
            Err(e) => {
                warn!("Wi-Fi multicast lock: {e}");
                self.held = on;
            }
        }
    }
}

#[cfg(target_os = "android")]
#[allow(unsafe_code)] // The activity's Java VM and object come from android-activity as raw pointers.
mod android {
    use jni::{
        JavaVM,
        objects::{GlobalRef, JObject},
    };

    fn vm() -> Result<(JavaVM, JObject<'static>), String> {
        let app = bevy::android::ANDROID_APP
            .get()
            .ok_or("no Android activity")?;
        // SAFETY: android-activity hands out the process's live Java VM and the activity's
        // global reference, valid for the life of the app.
        let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) }.map_err(|e| e.to_string())?;
        let activity = unsafe { JObject::from_raw(app.activity_as_ptr().cast()) };
        Ok((vm, activity))
    }

    /// `((WifiManager) activity.getSystemService("wifi")).createMulticastLock("junqi")`, not
    /// reference-counted, acquired.
    pub fn acquire() -> Result<GlobalRef, String> {
        let (vm, activity) = vm()?;
        let mut env = vm.attach_current_thread().map_err(|e| e.to_string())?;
        let e = |e: jni::errors::Error| e.to_string();
        let wifi_name = env.new_string("wifi").map_err(e)?;
        let wifi = env
            .call_method(
                &activity,
                "getSystemService",
                "(Ljava/lang/String;)Ljava/lang/Object;",
                &[(&wifi_name).into()],
            )
            .and_then(|v| v.l())
            .map_err(e)?;
        let tag = env.new_string("junqi").map_err(e)?;
        let lock = env
            .call_method(
                &wifi,
                "createMulticastLock",
                "(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;",
                &[(&tag).into()],
            )
            .and_then(|v| v.l())
            .map_err(e)?;
        env.call_method(&lock, "setReferenceCounted", "(Z)V", &[false.into()])
            .map_err(e)?;
        env.call_method(&lock, "acquire", "()V", &[]).map_err(e)?;
        env.new_global_ref(lock).map_err(e)
    }

    /// `lock.release()`.
    pub fn release(lock: &GlobalRef) -> Result<(), String> {
        let (vm, _) = vm()?;
        let mut env = vm.attach_current_thread().map_err(|e| e.to_string())?;
        env.call_method(lock, "release", "()V", &[])
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
