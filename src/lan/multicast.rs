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

    /// Why the lock could not be taken or let go (logged; the game goes on without it).
    #[derive(Debug)]
    pub enum LockError {
        /// The app was not started by an Android activity.
        NoActivity,
        /// A call into the Java VM failed.
        Jni(jni::errors::Error),
    }

    impl From<jni::errors::Error> for LockError {
        fn from(e: jni::errors::Error) -> Self {
            LockError::Jni(e)
        }
    }

    impl std::fmt::Display for LockError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                LockError::NoActivity => f.write_str("no Android activity"),
                LockError::Jni(e) => write!(f, "{e}"),
            }
        }
    }

    fn vm() -> Result<(JavaVM, JObject<'static>), LockError> {
        let app = bevy::android::ANDROID_APP
            .get()
            .ok_or(LockError::NoActivity)?;
        // SAFETY: android-activity hands out the process's live Java VM and the activity's
        // global reference, valid for the life of the app.
        let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) }?;
        let activity = unsafe { JObject::from_raw(app.activity_as_ptr().cast()) };
        Ok((vm, activity))
    }

    /// `((WifiManager) activity.getSystemService("wifi")).createMulticastLock("junqi")`, not
    /// reference-counted, acquired.
    pub fn acquire() -> Result<GlobalRef, LockError> {
        let (vm, activity) = vm()?;
        let mut env = vm.attach_current_thread()?;
        let wifi_name = env.new_string("wifi")?;
        let wifi = env
            .call_method(
                &activity,
                "getSystemService",
                "(Ljava/lang/String;)Ljava/lang/Object;",
                &[(&wifi_name).into()],
            )
            .and_then(|v| v.l())?;
        let tag = env.new_string("junqi")?;
        let lock = env
            .call_method(
                &wifi,
                "createMulticastLock",
                "(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;",
                &[(&tag).into()],
            )
            .and_then(|v| v.l())?;
        env.call_method(&lock, "setReferenceCounted", "(Z)V", &[false.into()])?;
        env.call_method(&lock, "acquire", "()V", &[])?;
        Ok(env.new_global_ref(lock)?)
    }

    /// `lock.release()`.
    pub fn release(lock: &GlobalRef) -> Result<(), LockError> {
        let (vm, _) = vm()?;
        let mut env = vm.attach_current_thread()?;
        env.call_method(lock, "release", "()V", &[])?;
        Ok(())
    }
}
