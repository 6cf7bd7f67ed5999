// runCli: runs the real headlens-cli binary and collects what a person would see.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace headlens::test {

struct CliResult
{
    int exitCode = -1; ///< -1 when the program crashed or did not finish in two minutes
    QString out;
    QString err;
    QByteArray errBytes; ///< stderr as the terminal receives it
};

/// `environment`: the program's (this process's by default).
inline CliResult
runCli(const QStringList &arguments,
       const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(HEADLENS_CLI_PATH, arguments);
    CliResult result;
    if (!process.waitForFinished(120000)) {
        process.kill();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.errBytes = process.readAllStandardError();
    result.err = QString::fromUtf8(result.errBytes);
    return result;
}

} // namespace headlens::test
