// sameOwner: whether two shared or weak handles share one owner, also once it has been freed.
#pragma once

namespace headlens {

/// Compared by control block (owner_before both ways): a picture or thumbnail that names the
/// trace or run it was made from with a std::weak_ptr, so as not to keep that memory alive,
/// still tells its own source from a newer one allocated at the same address.
template <typename A, typename B> bool sameOwner(const A &a, const B &b)
{
    return !a.owner_before(b) && !b.owner_before(a);
}

} // namespace headlens
