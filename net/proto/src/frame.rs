//! Length-delimited bincode-2 frames with a maximum size.
//!
//! A frame is a 4-byte big-endian payload length followed by the payload, a
//! bincode-2 (standard configuration, byte limit) encoding of one value. The
//! [`FrameDecoder`] is fed bytes as they arrive and yields values; oversized,
//! truncated-then-closed, garbage or trailing-byte input gives a clear
//! [`FrameError`], never a panic, and leaves the decoder failed (a stream that
//! sent garbage once cannot be resynchronised).

use bincode::config::{Configuration, Limit};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest payload accepted, in bytes.
pub const MAX_FRAME: usize = 16 * 1024;
/// Bytes of the length prefix.
pub const LEN_PREFIX: usize = 4;

/// The bincode configuration of every frame: standard (varint, little endian)
/// with a decode limit of [`MAX_FRAME`] bytes, so no length field can make the
/// decoder allocate more than that.
pub const CONFIG: Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    Limit<MAX_FRAME>,
> = bincode::config::standard().with_limit::<MAX_FRAME>();

/// Framing errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The length prefix announces more than the maximum.
    #[error("frame of {len} bytes exceeds the maximum of {max}")]
    Oversized {
        /// Announced length.
        len: usize,
        /// The maximum.
        max: usize,
    },
    /// The payload is not a valid encoding.
    #[error("undecodable frame: {0}")]
    Garbage(String),
    /// The payload decoded but left bytes unread.
    #[error("frame has {0} trailing bytes")]
    TrailingBytes(usize),
    /// The value could not be encoded (too large).
    #[error("cannot encode frame: {0}")]
    Encode(String),
    /// The stream ended inside a frame.
    #[error("stream ended {0} bytes into an incomplete frame")]
    Truncated(usize),
    /// An earlier error already broke the stream.
    #[error("the stream already failed")]
    Failed,
}

/// Encodes one value as payload bytes (no prefix).
///
/// # Errors
/// If the encoding exceeds [`MAX_FRAME`].
pub fn encode_payload<T: Serialize>(value: &T) -> Result<Vec<u8>, FrameError> {
    let v = bincode::serde::encode_to_vec(value, CONFIG)
        .map_err(|e| FrameError::Encode(e.to_string()))?;
    if v.len() > MAX_FRAME {
        return Err(FrameError::Oversized {
            len: v.len(),
            max: MAX_FRAME,
        });
    }
    Ok(v)
}

/// Decodes one payload, requiring every byte to be used.
///
/// # Errors
/// Garbage or trailing bytes.
pub fn decode_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, FrameError> {
    if payload.len() > MAX_FRAME {
        return Err(FrameError::Oversized {
            len: payload.len(),
            max: MAX_FRAME,
        });
    }
    let (v, used) = bincode::serde::decode_from_slice::<T, _>(payload, CONFIG)
        .map_err(|e| FrameError::Garbage(e.to_string()))?;
    if used != payload.len() {
        return Err(FrameError::TrailingBytes(payload.len() - used));
    }
    Ok(v)
}

/// Encodes one value as a whole frame (prefix and payload).
///
/// # Errors
/// If the encoding exceeds [`MAX_FRAME`].
pub fn encode_frame<T: Serialize>(value: &T) -> Result<Vec<u8>, FrameError> {
    let payload = encode_payload(value)?;
    let mut out = Vec::with_capacity(LEN_PREFIX + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Incremental frame decoder.
#[derive(Clone, Debug, Default)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    failed: bool,
}

impl FrameDecoder {
    /// An empty decoder.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends received bytes. Cheap: call [`Self::next_payload`] or
    /// [`Self::next_frame`] afterwards until they return `Ok(None)`.
    pub fn push(&mut self, bytes: &[u8]) {
        if !self.failed {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Bytes buffered and not yet returned.
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The next complete payload, if one has arrived.
    ///
    /// # Errors
    /// An oversized length prefix; afterwards always [`FrameError::Failed`].
    pub fn next_payload(&mut self) -> Result<Option<Vec<u8>>, FrameError> {
        if self.failed {
            return Err(FrameError::Failed);
        }
        if self.buf.len() < LEN_PREFIX {
            return Ok(None);
        }
        let len = u32::from_be_bytes([self.buf[0], self.buf[1], self.buf[2], self.buf[3]]) as usize;
        if len > MAX_FRAME {
            self.fail();
            return Err(FrameError::Oversized {
                len,
                max: MAX_FRAME,
            });
        }
        if self.buf.len() < LEN_PREFIX + len {
            return Ok(None);
        }
        let payload = self.buf[LEN_PREFIX..LEN_PREFIX + len].to_vec();
        self.buf.drain(..LEN_PREFIX + len);
        Ok(Some(payload))
    }

    /// The next complete decoded value, if one has arrived.
    ///
    /// # Errors
    /// Oversized or undecodable frames; afterwards always [`FrameError::Failed`].
    pub fn next_frame<T: DeserializeOwned>(&mut self) -> Result<Option<T>, FrameError> {
        let Some(payload) = self.next_payload()? else {
            return Ok(None);
        };
        match decode_payload(&payload) {
            Ok(v) => Ok(Some(v)),
            Err(e) => {
                self.fail();
                Err(e)
            }
        }
    }

    /// Takes the bytes buffered so far (to hand a stream over to another decoder).
    pub fn take_buffered(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buf)
    }

    /// Call when the stream ends: an error if it ended inside a frame.
    ///
    /// # Errors
    /// [`FrameError::Truncated`] when bytes of an incomplete frame remain.
    pub fn finish(&self) -> Result<(), FrameError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(FrameError::Truncated(self.buf.len()))
        }
    }

    fn fail(&mut self) {
        self.failed = true;
        self.buf = Vec::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Msg {
        A(u32),
        B { x: Vec<u8>, y: [u8; 32] },
    }

    #[test]
    fn round_trip_split_anywhere() {
        let msgs = [
            Msg::A(7),
            Msg::B {
                x: vec![1, 2, 3],
                y: [5; 32],
            },
            Msg::A(u32::MAX),
        ];
        let bytes: Vec<u8> = msgs.iter().flat_map(|m| encode_frame(m).unwrap()).collect();
        for split in 0..bytes.len() {
            let mut d = FrameDecoder::new();
            let mut got = Vec::new();
            d.push(&bytes[..split]);
            while let Some(m) = d.next_frame::<Msg>().unwrap() {
                got.push(m);
            }
            d.push(&bytes[split..]);
            while let Some(m) = d.next_frame::<Msg>().unwrap() {
                got.push(m);
            }
            assert_eq!(got, msgs);
            d.finish().unwrap();
        }
    }

    #[test]
    fn oversized_prefix_rejected_before_buffering() {
        let mut d = FrameDecoder::new();
        d.push(&u32::MAX.to_be_bytes());
        assert_eq!(
            d.next_frame::<Msg>(),
            Err(FrameError::Oversized {
                len: u32::MAX as usize,
                max: MAX_FRAME
            })
        );
        d.push(&[0; 100]);
        assert_eq!(d.buffered(), 0);
        assert_eq!(d.next_frame::<Msg>(), Err(FrameError::Failed));
    }

    #[test]
    fn oversized_value_refused_when_encoding() {
        let big = Msg::B {
            x: vec![0; MAX_FRAME + 1],
            y: [0; 32],
        };
        assert!(encode_frame(&big).is_err());
    }

    #[test]
    fn garbage_and_trailing_bytes() {
        let mut d = FrameDecoder::new();
        d.push(&[0, 0, 0, 3, 9, 9, 9]);
        assert!(matches!(d.next_frame::<Msg>(), Err(FrameError::Garbage(_))));
        let mut payload = encode_payload(&Msg::A(1)).unwrap();
        payload.push(0);
        assert_eq!(
            decode_payload::<Msg>(&payload),
            Err(FrameError::TrailingBytes(1))
        );
        // A vector length far beyond the limit must not allocate.
        let mut evil = vec![1u8]; // variant B
        evil.extend_from_slice(&[253, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]); // u64 length
        assert!(matches!(
            decode_payload::<Msg>(&evil),
            Err(FrameError::Garbage(_))
        ));
    }

    #[test]
    fn truncated_stream() {
        let f = encode_frame(&Msg::A(5)).unwrap();
        let mut d = FrameDecoder::new();
        d.push(&f[..f.len() - 1]);
        assert_eq!(d.next_frame::<Msg>(), Ok(None));
        assert_eq!(d.finish(), Err(FrameError::Truncated(f.len() - 1)));
    }

    proptest::proptest! {
        #[test]
        fn decoder_never_panics(chunks in proptest::collection::vec(proptest::collection::vec(proptest::num::u8::ANY, 0..64), 0..8)) {
            let mut d = FrameDecoder::new();
            for c in chunks {
                d.push(&c);
                while let Ok(Some(_)) = d.next_frame::<Msg>() {}
            }
        }
    }
}
