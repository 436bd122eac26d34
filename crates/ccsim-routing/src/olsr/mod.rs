//! OLSR (RFC 3626), as ns-3.44's `olsr` module runs it.
