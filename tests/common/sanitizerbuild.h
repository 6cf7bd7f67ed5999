// underSanitizers: whether this test runs in the AddressSanitizer build (make test-asan).
#pragma once

namespace headlens::test {

/// True in the sanitizer build. Tests whose rows repeat one code path for many settings run
/// a few of them there: each row's layout or option is checked in the release build, which
/// make test runs in full, and the sanitizers look for memory errors, which the same path
/// shows in its first row as in its tenth (as the monkey plays half its minute there).
constexpr bool underSanitizers()
{
#if defined(__SANITIZE_ADDRESS__)
    return true;
#else
    return false;
#endif
}

} // namespace headlens::test
