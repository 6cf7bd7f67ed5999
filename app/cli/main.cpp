// headlens-cli: multi-head attention from the command line, no display needed.
#include "tracecommand.h"
#include "traincommand.h"
#include "trainlanguagemodelcommand.h"

#include "util/inputerror.h"

#include <iostream>

int main(int argc, char **argv)
{
    using namespace headlens;
    try {
        const CommandLineRequest request =
            CommandLine::parse(std::vector<std::string>(argv + 1, argv + argc), false);
        if (request.train.storyBytes > 0)
            return TrainLanguageModelCommand(std::cout).printStories(request);
        if (request.train.languageModel)
            return TrainLanguageModelCommand(std::cout).run(request);
        if (!request.train.task.empty())
            return TrainCommand(std::cout, std::cerr).run(request);
        return TraceCommand(std::cout, std::cerr).run(request);
    } catch (const InputError &error) {
        std::cerr << "headlens-cli: " << error.what() << "\n";
        return 2;
    } catch (const std::bad_alloc &) {
        std::cerr << "headlens-cli: out of memory: use a shorter text, fewer heads or a smaller "
                     "d_model.\n";
        return 2;
    }
}
