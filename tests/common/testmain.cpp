// The one main of each test executable: runs the test class registered under argv[1].
#include "testmain.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace headlens::test {

namespace {

/// Built on first use: the registrations run during static initialisation, in any order.
std::map<std::string, TestRunner> &registry()
{
    static std::map<std::string, TestRunner> tests;
    return tests;
}

std::string baseName(const char *file)
{
    std::string name(file);
    const size_t slash = name.find_last_of("/\\");
    if (slash != std::string::npos)
        name.erase(0, slash + 1);
    const size_t dot = name.find('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

int usage(const char *program)
{
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]\nThe tests here:\n", program);
    for (const auto &entry : registry())
        std::fprintf(stderr, "  %s\n", entry.first.c_str());
    return 2;
}

} // namespace

bool registerTest(const char *file, TestRunner run)
{
    registry()[baseName(file)] = run;
    return true;
}

} // namespace headlens::test

int main(int argc, char *argv[])
{
    using headlens::test::registry;
    if (argc < 2 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)
        return headlens::test::usage(argv[0]);
    const auto test = registry().find(argv[1]);
    if (test == registry().end()) {
        std::fprintf(stderr, "%s: no test named '%s'.\n", argv[0], argv[1]);
        return headlens::test::usage(argv[0]);
    }
    // The test sees the arguments after its name, and its own name as the program's: Qt names
    // the application (and so its settings and temporary paths) after argv[0], as before.
    std::vector<char *> args{argv[1]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return test->second(argc - 1, args.data());
}
