// The core's types that several tests use as Qt Test data columns, declared to Qt once (a
// unity build of the tests would otherwise see two declarations).
#pragma once

#include "attention/attentionconfig.h"
#include "linalg/gemmbackend.h"
#include "text/pipeline/bpemodel.h"

#include <QMetaType>

#include <vector>

Q_DECLARE_METATYPE(headlens::AttentionPositions)
Q_DECLARE_METATYPE(headlens::BpeModel::MergeList)
Q_DECLARE_METATYPE(headlens::GemmBackend)
Q_DECLARE_METATYPE(std::vector<int>)
