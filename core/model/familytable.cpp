// FamilyTable: finding a family's table by model_type or by the keys its config.json holds.
#include "model/familytable.h"

namespace headlens {

const FamilyTable *FamilyTable::find(const std::string &modelType)
{
    for (const FamilyTable &table : familyTables())
        if (table.modelType == modelType)
            return &table;
    return nullptr;
}

const FamilyTable *FamilyTable::byConfigKeys(const std::function<bool(const std::string &)> &hasKey)
{
    for (const FamilyTable &table : familyTables())
        if (hasKey(table.layers.key) || hasKey(table.heads.key) || hasKey(table.dModel.key))
            return &table;
    return nullptr;
}

const FamilyTable *FamilyTable::findGguf(const std::string &architecture)
{
    for (const FamilyTable &table : familyTables())
        if (!architecture.empty() && table.gguf.architecture == architecture)
            return &table;
    return nullptr;
}

std::string FamilyTable::knownGgufArchitectures()
{
    std::string text;
    for (const FamilyTable &table : familyTables())
        if (!table.gguf.architecture.empty())
            text += (text.empty() ? "\"" : ", \"") + table.gguf.architecture + "\"";
    return text;
}

std::string FamilyTable::knownTypes()
{
    std::string text;
    for (const FamilyTable &table : familyTables())
        text += (text.empty() ? "\"" : ", \"") + table.modelType + "\"";
    return text;
}

} // namespace headlens
